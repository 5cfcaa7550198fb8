/*
 * k8s.c — Kubernetes objects (YAML or JSON) -> kplan's model structs: the
 * reader's entry and dispatch.
 *
 * kp_k8s_read() walks every object of a YAML/JSON stream (ydom.c: documents,
 * `kind: List` items), reads its head (kind, apiVersion, metadata.name and
 * namespace, generateName) and hands it to the reader of its kind family:
 * k8s_nodes.c (Node), k8s_pods.c (Pod; Deployment, ReplicaSet, StatefulSet,
 * Job, ReplicationController, DaemonSet), k8s_policy.c (PriorityClass,
 * PodDisruptionBudget, Service, Namespace), k8s_config.c
 * (KubeSchedulerConfiguration, and a ConfigMap that carries one),
 * k8s_storage.c (StorageClass, PersistentVolume, PersistentVolumeClaim,
 * CSINode, CSIDriver, CSIStorageCapacity: any apiVersion), k8s_dra.c and
 * k8s_dra_claims.c (DeviceClass, ResourceSlice, ResourceClaim,
 * ResourceClaimTemplate of resource.k8s.io v1, v1beta2, v1beta1; other
 * versions refused), which call the kp_import_* functions (store.h).
 * Other kinds are counted and skipped.
 * Objects without `kind` (client-go dumps) are recognised by shape:
 * spec.containers -> Pod, status.nodeInfo / status.capacity -> Node,
 * spec.persistentVolumeReclaimPolicy with spec.capacity -> PersistentVolume.
 *
 * Validation follows the API server where it decides what the scheduler sees
 * (operators, effects, quantities, integer fields); a bad object is reported
 * as FILE:LINE:COL: KIND NAMESPACE/NAME: path: what is wrong, and goes through
 * kp_import_invalid() (which stops the batch unless --skip-invalid).
 */
#include "k8s_int.h"

#include <stdio.h>
#include <string.h>

/* the object named in messages: "KIND NS/NAME" or "KIND NAME" */
static void set_object(kctx *c, const char *kind, const char *ns, const char *name)
{
	if (ns)
		snprintf(c->object, sizeof c->object, "%s %s/%s", kind, ns, name ? name : "?");
	else
		snprintf(c->object, sizeof c->object, "%s %s", kind, name ? name : "?");
}

/* A kind kplan does not read: counted per apiVersion and kind.  One that
 * makes pods (a pod template: a CRD workload, a CronJob) gets a note, since
 * its pods are then missing from the plan unless the dump holds them. */
static int skip(kctx *c, const objhead *h)
{
	char key[300];
	snprintf(key, sizeof key, "%s%s%s", h->api_version ? h->api_version : "", h->api_version ? " " : "", h->kind);
	kp_import_skipped(c->imp, key);
	const kp_ynode *tmpl = h->spec ? kp_ymap_get(h->spec, "template") : NULL, *where = tmpl;
	const char *path = "spec.template";
	if (!tmpl && h->spec && (tmpl = kp_ymap_get(h->spec, "jobTemplate"))) {
		where = tmpl;
		path = "spec.jobTemplate";
		tmpl = kp_ymap_get(tmpl, "spec") ? kp_ymap_get(kp_ymap_get(tmpl, "spec"), "template") : NULL;
	}
	const kp_ynode *ps = tmpl && tmpl->type == KP_Y_MAP ? kp_ymap_get(tmpl, "spec") : NULL;
	if (!ps || ps->type != KP_Y_MAP || !kp_ymap_get(ps, "containers"))
		return KP_OK;
	const kp_ynode *rep = kp_ymap_get(h->spec, "replicas");
	char reps[64] = "";
	if (rep && rep->type == KP_Y_SCALAR)
		snprintf(reps, sizeof reps, " and %s replica%s", rep->u.str, strcmp(rep->u.str, "1") ? "s" : "");
	kp_err_set(c->err, KP_OK, "skipped: kplan does not read %s, but it has a pod template (%s)%s: the pods it "
		   "makes are planned only if the input holds them (kubectl get pods)", key, path, reps);
	kp_err_locate(c->err, c->file, where->line, where->col, c->object);
	kp_import_note(c->imp, c->err);
	return KP_OK;
}

static int is_namespaced(const char *kind)
{
	return strcmp(kind, "Node") && strcmp(kind, "PriorityClass") && strcmp(kind, "Namespace") &&
	       strcmp(kind, "KubeSchedulerConfiguration") && strcmp(kind, "PersistentVolume") &&
	       strcmp(kind, "StorageClass") && strcmp(kind, "CSINode") && strcmp(kind, "CSIDriver") &&
	       strcmp(kind, "DeviceClass") && strcmp(kind, "ResourceSlice") && strcmp(kind, "DeviceTaintRule");
}

/* the storage kinds (k8s_storage.c) and their readers */
static const struct { const char *kind; int (*read)(kctx *, const objhead *); } storage_kinds[] = {
	{ "PersistentVolume", kp_k8s_read_pv }, { "PersistentVolumeClaim", kp_k8s_read_pvc },
	{ "StorageClass", kp_k8s_read_storage_class }, { "CSINode", kp_k8s_read_csi_node },
	{ "CSIDriver", kp_k8s_read_csi_driver }, { "CSIStorageCapacity", kp_k8s_read_csi_capacity },
};

static int storage_reader(const char *kind)
{
	for (size_t i = 0; i < sizeof storage_kinds / sizeof *storage_kinds; i++)
		if (!strcmp(kind, storage_kinds[i].kind))
			return (int)i;
	return -1;
}

/* the DRA kinds (k8s_dra.c, k8s_dra_claims.c) of group resource.k8s.io (or
 * of no apiVersion: a typed list's items) and their readers */
static const struct { const char *kind; int (*read)(kctx *, const objhead *); } dra_kinds[] = {
	{ "DeviceClass", kp_k8s_read_device_class }, { "ResourceSlice", kp_k8s_read_resource_slice },
	{ "ResourceClaim", kp_k8s_read_resource_claim }, { "ResourceClaimTemplate", kp_k8s_read_claim_template },
};

static int dra_reader(const objhead *h)
{
	if (h->api_version && strncmp(h->api_version, "resource.k8s.io/", 16) != 0)
		return -1;
	for (size_t i = 0; i < sizeof dra_kinds / sizeof *dra_kinds; i++)
		if (!strcmp(h->kind, dra_kinds[i].kind))
			return (int)i;
	return -1;
}

/* DRA objects of the versions kplan reads: v1, v1beta2, v1beta1 */
static int dra_dispatch(kctx *c, const objhead *h, int i)
{
	const char *v = h->api_version ? h->api_version + 16 : NULL;
	if (v && strcmp(v, "v1") != 0 && strcmp(v, "v1beta2") != 0 && strcmp(v, "v1beta1") != 0)
		return kp_k8s_bad(c, kp_ymap_get(h->obj, "apiVersion"),
				  "apiVersion: '%s' is not supported (kplan reads resource.k8s.io/v1, v1beta2 and v1beta1%s)",
				  h->api_version, !strcmp(v, "v1alpha2") ? "; v1alpha2 is classic DRA (resourceClassName, "
				  "parametersRef), removed in Kubernetes 1.32" : !strcmp(v, "v1alpha3") ? "; v1alpha3 is the "
				  "Kubernetes 1.31 form" : "");
	return dra_kinds[i].read(c, h);
}

/* the Workload API (k8s_gang.c): 1 Workload, 2 PodGroup of scheduling.k8s.io, 0 other */
static int gang_kind(const objhead *h)
{
	if (!h->api_version || strncmp(h->api_version, "scheduling.k8s.io/", 18) != 0)
		return 0;
	return !strcmp(h->kind, "Workload") ? 1 : !strcmp(h->kind, "PodGroup") ? 2 : 0;
}

static int dispatch(kctx *c, objhead *h)
{
	const char *k = h->kind;
	if (!strcmp(k, "Node"))
		return kp_k8s_read_node(c, h);
	if (!strcmp(k, "Pod"))
		return kp_k8s_read_pod(c, h);
	if (!strcmp(k, "Deployment") || !strcmp(k, "ReplicaSet") || !strcmp(k, "StatefulSet") ||
	    !strcmp(k, "Job") || !strcmp(k, "ReplicationController") || !strcmp(k, "DaemonSet"))
		return kp_k8s_read_workload(c, h);
	if (!strcmp(k, "PriorityClass"))
		return kp_k8s_read_priority_class(c, h);
	if (!strcmp(k, "PodDisruptionBudget"))
		return kp_k8s_read_pdb(c, h);
	if (!strcmp(k, "Service"))
		return kp_k8s_read_service(c, h);
	if (!strcmp(k, "Namespace"))
		return kp_k8s_read_namespace(c, h);
	if (!strcmp(k, "KubeSchedulerConfiguration"))
		return kp_k8s_read_sched_config(c, h);
	int st = storage_reader(k);
	if (st >= 0)
		return storage_kinds[st].read(c, h);
	int dra = dra_reader(h);
	if (dra >= 0)
		return dra_dispatch(c, h, dra);
	if (gang_kind(h) == 1)
		return kp_k8s_read_sched_workload(c, h);
	if (gang_kind(h) == 2)
		return kp_k8s_read_pod_group(c, h);
	/* one level only: ConfigMaps nested in data would recurse, each level
	 * parsing the text of all the levels inside it again */
	if (!strcmp(k, "ConfigMap") && !c->in_configmap)
		return kp_k8s_read_configmap(c, h);
	return skip(c, h);
}

/* client-go dumps: no apiVersion/kind; Pods, Nodes and PersistentVolumes
 * (spec.persistentVolumeReclaimPolicy, which only a PV has) are recognised by shape */
static const char *kind_by_shape(const kp_ynode *spec, const kp_ynode *status)
{
	if (spec && kp_ymap_get(spec, "containers"))
		return "Pod";
	if (spec && kp_ymap_get(spec, "persistentVolumeReclaimPolicy") && kp_ymap_get(spec, "capacity"))
		return "PersistentVolume";
	if (status && (kp_ymap_get(status, "nodeInfo") || kp_ymap_get(status, "capacity") ||
		       kp_ymap_get(status, "allocatable")))
		return "Node";
	return NULL;
}

/* metadata.generateName: a deterministic suffix from the object's position */
static const char *generated_name(kctx *c, const kp_ynode *obj, const char *gen)
{
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	char suffix[6];
	uint64_t hv = kp_hash64(c->file, strlen(c->file), obj->line);
	for (int i = 0; i < 5; i++, hv /= 27)
		suffix[i] = alphabet[hv % 27];
	suffix[5] = 0;
	return kp_arena_printf(c->a, "%s%s", gen, suffix);
}

static const char *scalar(const kp_ynode *m, const char *key)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	return v && v->type == KP_Y_SCALAR && v->u.str[0] ? v->u.str : NULL;
}

/* An object with a duplicate key is refused before it is read (which of the
 * two values is meant is unknown): named as far as its fields can be read. */
static int refuse_dup(kctx *c, const kp_ynode *obj, const kp_yobj_info *info)
{
	const kp_ynode *meta = kp_ymap_get(obj, "metadata");
	const char *kind = scalar(obj, "kind"), *name = scalar(meta, "name"), *ns = scalar(meta, "namespace");
	char list_item[128];
	if (!kind && info->list_kind && strlen(info->list_kind) > 4 && strcmp(info->list_kind, "List") != 0) {
		snprintf(list_item, sizeof list_item, "%.*s", (int)strlen(info->list_kind) - 4, info->list_kind);
		kind = list_item;
	}
	if (!kind)
		kind = kind_by_shape(kp_ymap_get(obj, "spec"), kp_ymap_get(obj, "status"));
	if (kind && !strcmp(kind, "KubeSchedulerConfiguration")) {
		set_object(c, kind, NULL, scalar(obj, "apiVersion") ? scalar(obj, "apiVersion") : "");
	} else if (kind) {
		if (!name && scalar(meta, "generateName"))
			name = generated_name(c, obj, scalar(meta, "generateName"));
		set_object(c, kind, is_namespaced(kind) ? (ns ? ns : "default") : NULL, name);
	}
	if (!c->cm_label)
		return kp_yaml_dup_error(c->err, c->file, info->dup, info->dup_first, c->object);
	/* a ConfigMap's literal block: both keys where they are in the file
	 * (locate's shift), named by the ConfigMap's value as its YAML errors are */
	kp_ynode dup = *info->dup, first = *info->dup_first;
	dup.line += c->yline;
	dup.col += c->ycol;
	first.line += c->yline;
	first.col += c->ycol;
	return kp_yaml_dup_error(c->err, c->yfile, &dup, &first, c->cm_label);
}

int kp_k8s_on_object(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err)
{
	kctx *c = ctx;
	objhead h;
	memset(&h, 0, sizeof h);
	c->object[0] = 0;
	c->doc = info->doc;
	h.obj = obj;
	int rc;
	if (info->dup) {
		rc = refuse_dup(c, obj, info);
		goto fail;
	}
	if (obj->type != KP_Y_MAP) {
		rc = kp_k8s_bad(c, obj, "expected a Kubernetes object (a mapping), got a %s", kp_ynode_type_name(obj));
		goto fail;
	}
	if (kp_k8s_get_str(c, obj, "kind", "kind", &h.kind) != KP_OK ||
	    kp_k8s_get_str(c, obj, "apiVersion", "apiVersion", &h.api_version) != KP_OK ||
	    kp_k8s_get_map(c, obj, "metadata", "metadata", &h.meta) != KP_OK ||
	    kp_k8s_get_map(c, obj, "spec", "spec", &h.spec) != KP_OK ||
	    kp_k8s_get_map(c, obj, "status", "status", &h.status) != KP_OK) {
		rc = KP_PARSE;
		goto fail;
	}
	if (!h.kind && info->list_kind && strlen(info->list_kind) > 4 && strcmp(info->list_kind, "List") != 0) {
		/* items of a typed list (PodList, NodeList) carry no kind */
		size_t n = strlen(info->list_kind) - 4;
		char *k = kp_arena_strndup(c->a, info->list_kind, n);
		if (!k)
			return kp_k8s_nomem(c);
		h.kind = k;
	}
	if (!h.kind)
		h.kind = kind_by_shape(h.spec, h.status);
	if (!h.kind) {
		if (kp_ymap_get(obj, "algorithmprovider") || kp_ymap_get(obj, "typemeta") ||
		    kp_ymap_get(obj, "schedulername")) {
			rc = kp_k8s_bad(c, obj, "this is a legacy (pre-ComponentConfig) kube-scheduler settings dump, not a "
					 "KubeSchedulerConfiguration: write a kubescheduler.config.k8s.io/v1 file instead");
			goto fail;
		} else {
			rc = kp_k8s_bad(c, obj, "cannot tell what this is: no 'kind' field, and not shaped like a Pod "
					 "(spec.containers) or a Node (status.capacity)");
			goto fail;
		}
	}
	if (!h.kind[0]) {
		rc = kp_k8s_bad(c, kp_ymap_get(obj, "kind"), "kind: empty");
		goto fail;
	}
	if (!strcmp(h.kind, "KubeSchedulerConfiguration")) {
		set_object(c, h.kind, NULL, h.api_version ? h.api_version : "");
		rc = kp_k8s_read_sched_config(c, &h);
		goto done;
	}
	if (kp_k8s_get_str(c, h.meta, "name", "metadata.name", &h.name) != KP_OK ||
	    kp_k8s_get_str(c, h.meta, "namespace", "metadata.namespace", &h.namespace_) != KP_OK) {
		rc = KP_PARSE;
		goto fail;
	}
	int known = !strcmp(h.kind, "Node") || !strcmp(h.kind, "Pod") || !strcmp(h.kind, "Deployment") ||
		    !strcmp(h.kind, "ReplicaSet") || !strcmp(h.kind, "StatefulSet") || !strcmp(h.kind, "Job") ||
		    !strcmp(h.kind, "ReplicationController") || !strcmp(h.kind, "DaemonSet") ||
		    !strcmp(h.kind, "PriorityClass") || !strcmp(h.kind, "PodDisruptionBudget") ||
		    !strcmp(h.kind, "Service") || !strcmp(h.kind, "Namespace") || storage_reader(h.kind) >= 0 ||
		    dra_reader(&h) >= 0 || gang_kind(&h);
	if (is_namespaced(h.kind) && (!h.namespace_ || !h.namespace_[0]))
		h.namespace_ = "default";
	if (!is_namespaced(h.kind))
		h.namespace_ = NULL;
	if (known && (!h.name || !h.name[0])) {
		const char *gen = NULL;
		if (kp_k8s_get_str(c, h.meta, "generateName", "metadata.generateName", &gen) != KP_OK) {
			rc = KP_PARSE;
			goto fail;
		}
		if (!gen || !gen[0]) {
			set_object(c, h.kind, h.namespace_, "?");
			rc = kp_k8s_bad(c, h.meta ? h.meta : obj, "metadata.name: required");
			goto fail;
		}
		h.name = generated_name(c, obj, gen);
		if (!h.name)
			return kp_k8s_nomem(c);
	}
	set_object(c, h.kind, h.namespace_, h.name);
	rc = dispatch(c, &h);
done:
	if (rc == KP_OK)
		return KP_OK;
fail:
	if (rc == KP_PARSE || rc == KP_RANGE) {
		kp_k8s_locate(c, err, obj->line, obj->col);
		return kp_import_invalid(c->imp, err);
	}
	return rc;
}

/* 1 when data holds "{{" (Go template syntax) */
static int has_braces(const char *data, size_t len)
{
	for (const char *p = data; len > 1 && (p = memchr(p, '{', len - 1 - (size_t)(p - data))); p++)
		if (p[1] == '{')
			return 1;
	return 0;
}

int kp_k8s_read(kp_import *imp, const char *file, const char *data, size_t len, kp_err *err)
{
	kctx c;
	memset(&c, 0, sizeof c);
	c.imp = imp;
	c.file = file;
	c.a = kp_import_arena(imp);
	c.err = err;
	c.ytext = data;
	c.ylen = len;
	c.yfile = file;
	int rc = kp_yaml_each_object(data, len, file, c.a, kp_k8s_on_object, &c, err);
	if (rc == KP_PARSE && has_braces(data, len) && !strstr(err->msg, "Helm")) {
		size_t l = strlen(err->msg);
		snprintf(err->msg + l, sizeof err->msg - l, " (the file holds '{{': an unrendered Helm template? "
			 "import the output of 'helm template' instead)");
	}
	return rc;
}
