/*
 * k8s_int.h — what the files of the Kubernetes reader share (private to
 * importers/k8s*.c): the reading context, an object's head, the typed
 * field accessors (k8s_fields.c), the pod spec (k8s_podspec.c) and one
 * reader per kind family — k8s_nodes.c (Node), k8s_pods.c (Pod and the
 * workloads), k8s_policy.c (PriorityClass, PodDisruptionBudget, Service,
 * Namespace), k8s_config.c (KubeSchedulerConfiguration, ConfigMap),
 * k8s_storage.c (StorageClass, PersistentVolume, PersistentVolumeClaim,
 * CSINode, CSIDriver, CSIStorageCapacity; pod volumes), k8s_dra.c
 * (DeviceClass, ResourceSlice; the DRA pieces both DRA files share) and
 * k8s_dra_claims.c (ResourceClaim, ResourceClaimTemplate; pods'
 * resourceClaims) — which k8s.c dispatches to.
 *
 * The accessors' rule: a field that is absent (or null) is fine and leaves
 * *out empty, a field of the wrong type or value is an error, located at the
 * field and named by its path ("spec.containers[0].resources.limits.cpu").
 * Every one returns KP_OK or the error's code (KP_PARSE, KP_RANGE, KP_NOMEM),
 * with c->err set.  Strings and arrays they return live in c->a or in the
 * YAML tree, both valid until the next object.
 */
#ifndef KP_K8S_INT_H
#define KP_K8S_INT_H

#include "k8s.h"
#include "../common/ydom.h"

/* the room for a field's path in messages */
#define PATHMAX 256

typedef struct kctx {
	kp_import *imp;
	const char *file;
	kp_arena *a;
	kp_err *err;
	char object[384];
	unsigned doc;
	int in_configmap;        /* reading a ConfigMap's data: no ConfigMaps inside */
	/* where the text read lies in the file (ytext.h): a node at line/col of
	 * the text is at line + yline, col + ycol of ytext, which has yfile's
	 * positions; ytext NULL: they cannot be recovered */
	const char *ytext, *yfile;
	size_t ylen;
	unsigned yline, ycol;
	const char *cm_label;    /* in a ConfigMap's literal block: "ConfigMap NS/NAME data.KEY" */
	/* a forward cursor into ytext (k8s_dra.c: where CEL expressions start):
	 * line ycur_line starts at byte ycur_off of ycur_text (reset when
	 * ycur_text is not ytext) */
	const char *ycur_text;
	size_t ycur_off;
	unsigned ycur_line;
} kctx;

/* One object: its mapping, the usual parts (NULL when absent), and its kind,
 * apiVersion, name and namespace (NULL for a cluster-scoped kind). */
typedef struct objhead {
	const kp_ynode *obj, *meta, *spec, *status;
	const char *kind, *api_version, *name, *namespace_;
} objhead;

/* ---- k8s.c ---- */

/* The kp_yaml_each_object callback: one object read, stored or skipped
 * (also for the YAML stream inside a ConfigMap's value). */
int kp_k8s_on_object(void *ctx, kp_ynode *obj, const kp_yobj_info *info, kp_err *err);

/* ---- k8s_fields.c ---- */

/* err at line/col of the text read; inside a ConfigMap's literal block, at
 * the file's own line and column, the ConfigMap named before the object */
void kp_k8s_locate(kctx *c, kp_err *err, unsigned line, unsigned col);
/* c->err = KP_PARSE with the message, located at node at (NULL: unknown) */
int kp_k8s_bad(kctx *c, const kp_ynode *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int kp_k8s_nomem(kctx *c);
/* 1 = s is a decimal integer (sign allowed) in *out, 0 = not one, -1 = out of range */
int kp_k8s_parse_int(const char *s, int64_t *out);

int kp_k8s_get_map(kctx *c, const kp_ynode *m, const char *key, const char *path, const kp_ynode **out);
int kp_k8s_get_seq(kctx *c, const kp_ynode *m, const char *key, const char *path, const kp_ynode **out);
int kp_k8s_get_str(kctx *c, const kp_ynode *m, const char *key, const char *path, const char **out);
/* present may be NULL; *out is left alone when the field is absent */
int kp_k8s_get_int(kctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out, int *present);
int kp_k8s_get_bool(kctx *c, const kp_ynode *m, const char *key, const char *path, int *out);
/* RFC 3339 to Unix seconds; INT64_MIN when absent */
int kp_k8s_get_time(kctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out);
/* a string that must be one of allowed (NULL-terminated) */
int kp_k8s_one_of(kctx *c, const kp_ynode *m, const char *key, const char *path, const char *const *allowed,
		  const char **out);
/* map of string -> string (labels, nodeSelector); null values become "" */
int kp_k8s_get_kvs(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_kvs *out);
int kp_k8s_get_strs(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_strs *out);
/* resource name -> quantity, in the resource's base unit (quantity.h) */
int kp_k8s_get_resources(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_ress *out);
/* matchExpressions-like requirements with operators from ops */
int kp_k8s_get_reqs(kctx *c, const kp_ynode *seq, const char *path, const char *const *ops, kp_req **out,
		    size_t *n);
/* metav1.LabelSelector (absent: present = 0) */
int kp_k8s_get_selector(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_selector *out);
/* a plain map selector (Service, ReplicationController) */
int kp_k8s_map_selector(kctx *c, const kp_kvs *kv, kp_selector *out);

/* ---- k8s_podspec.c ---- */

/* The scheduling-relevant parts of a PodSpec (path prefix "spec"). */
int kp_k8s_get_pod_spec(kctx *c, const kp_ynode *spec, kp_pod_in *pod);
/* the controller ownerReference (controller: true) of metadata */
int kp_k8s_get_owner(kctx *c, const kp_ynode *meta, kp_owner *out);
/* one nodeSelectorTerm (matchExpressions, matchFields: metadata.name only) */
int kp_k8s_get_node_term(kctx *c, const kp_ynode *t, const char *path, kp_node_term *out);

/* ---- k8s_storage.c ---- */

/* a pod spec's volumes (the seq spec.volumes) that matter to scheduling */
int kp_k8s_get_volumes(kctx *c, const kp_ynode *vols, kp_pod_in *pod);
/* a StatefulSet's spec.volumeClaimTemplates (the seq) into w->claims */
int kp_k8s_get_claim_templates(kctx *c, const kp_ynode *vct, kp_workload_in *w);

/* ---- k8s_dra.c: what the DRA readers share ---- */

/* 1: resource.k8s.io/v1beta1 (a device's fields under `basic`, a request's
 * `exactly` fields in the request); 0: v1 or v1beta2; -1: no apiVersion
 * (the reader tells by shape) */
int kp_k8s_dra_beta1(const objhead *h);
/* the selectors list m.selectors ([{cel: {expression}}]) with their positions */
int kp_k8s_dra_selectors(kctx *c, const kp_ynode *m, const char *path, kp_cels *out);
/* a quantity scalar in its base unit (rounded up) and its text */
int kp_k8s_dra_quantity(kctx *c, const kp_ynode *q, const char *path, int64_t *value, const char **text);
/* a QualifiedName split: "d.example.com/name" or "name" (in driver's domain;
 * driver NULL: the domain stays NULL) */
int kp_k8s_dra_qualify(kctx *c, const kp_ynode *at, const char *path, const char *name, const char *driver,
		       const char **domain, const char **id);
/* a v1.NodeSelector at m.key (*has = 0 when absent) */
int kp_k8s_dra_node_selector(kctx *c, const kp_ynode *m, const char *key, const char *path, int *has,
			     kp_node_term **terms, size_t *n);
/* m.tolerations: DeviceTolerations (operator defaults to Equal) */
int kp_k8s_dra_tolerations(kctx *c, const kp_ynode *m, const char *path, kp_toleration **out, size_t *n);
/* n as compact JSON in c->a (NULL: no memory, c->err set) */
const char *kp_k8s_dra_json(kctx *c, const kp_ynode *n);

/* ---- k8s_dra_claims.c ---- */

/* a config list (DeviceClass spec.config, claim spec.devices.config):
 * each entry's opaque driver and parameters; with spec, its requests
 * must name requests of spec */
int kp_k8s_dra_config(kctx *c, const kp_ynode *seq, const char *path, const kp_device_claim *spec);
/* a pod spec's resourceClaims and its containers' resources.claims */
int kp_k8s_get_pod_claims(kctx *c, const kp_ynode *spec, kp_pod_in *pod);
/* a pod's status.resourceClaimStatuses, onto pod->claims */
int kp_k8s_get_claim_statuses(kctx *c, const kp_ynode *status, kp_pod_in *pod);

/* k8s_kube.c: the inputs of version-dependent rules (docs/kube-versions.md) */
int kp_k8s_get_pod_resources(kctx *c, const kp_ynode *spec, kp_pod_in *pod);
int kp_k8s_infer_features(kctx *c, const kp_ynode *spec, kp_pod_in *pod);
int kp_k8s_get_resize_status(kctx *c, const kp_ynode *status, kp_pod_in *pod);
int kp_k8s_get_declared_features(kctx *c, const kp_ynode *status, kp_node_in *n);

/* ---- one reader per kind family: parse, then kp_import_* ---- */

int kp_k8s_read_node(kctx *c, const objhead *h);              /* k8s_nodes.c */
int kp_k8s_read_pod(kctx *c, const objhead *h);               /* k8s_pods.c */
int kp_k8s_read_workload(kctx *c, const objhead *h);
int kp_k8s_read_priority_class(kctx *c, const objhead *h);    /* k8s_policy.c */
int kp_k8s_read_pdb(kctx *c, const objhead *h);
int kp_k8s_read_service(kctx *c, const objhead *h);
int kp_k8s_read_namespace(kctx *c, const objhead *h);
int kp_k8s_read_sched_config(kctx *c, const objhead *h);      /* k8s_config.c */
int kp_k8s_read_configmap(kctx *c, const objhead *h);
int kp_k8s_read_storage_class(kctx *c, const objhead *h);     /* k8s_storage.c */
int kp_k8s_read_pv(kctx *c, const objhead *h);
int kp_k8s_read_pvc(kctx *c, const objhead *h);
int kp_k8s_read_csi_node(kctx *c, const objhead *h);
int kp_k8s_read_csi_driver(kctx *c, const objhead *h);
int kp_k8s_read_csi_capacity(kctx *c, const objhead *h);
int kp_k8s_read_device_class(kctx *c, const objhead *h);      /* k8s_dra.c */
int kp_k8s_read_resource_slice(kctx *c, const objhead *h);
int kp_k8s_read_resource_claim(kctx *c, const objhead *h);    /* k8s_dra_claims.c */
int kp_k8s_read_claim_template(kctx *c, const objhead *h);
int kp_k8s_read_pod_group(kctx *c, const objhead *h);         /* k8s_gang.c */
int kp_k8s_read_sched_workload(kctx *c, const objhead *h);
/* a pod spec's spec.schedulingGroup / spec.workloadRef (k8s_gang.c) */
int kp_k8s_get_sched_group(kctx *c, const kp_ynode *spec, kp_pod_in *pod);

#endif
