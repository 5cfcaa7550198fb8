/*
 * k8s_storage.c — the readers of the storage kinds (issue 16, imported but
 * not planned yet): StorageClass, PersistentVolume, PersistentVolumeClaim,
 * CSINode, CSIDriver, CSIStorageCapacity (storage.k8s.io/v1 and v1beta1:
 * the same fields), and the storage parts of other objects: a pod spec's
 * volumes (kp_k8s_get_volumes) and a StatefulSet's volumeClaimTemplates
 * (kp_k8s_get_claim_templates).
 *
 * Contract: as every reader (k8s_int.h): unknown fields are ignored, a field
 * of the wrong type or value is refused at its position.  Quantities are
 * bytes; access modes are checked against the four the API server knows and
 * joined with commas in spec order.  An in-tree disk source (in a PV or in
 * a pod) is named by the CSI driver CSI migration gives it, with the disk id
 * as its volume handle, as kubernetes/kubernetes
 * staging/src/k8s.io/csi-translation-lib/plugins/ names them (aws_ebs.go
 * AWSEBSDriverName "ebs.csi.aws.com" from volumeID; gce_pd.go
 * GCEPDDriverName "pd.csi.storage.gke.io" from pdName; azure_disk.go
 * AzureDiskDriverName "disk.csi.azure.com" from diskURI; openstack_cinder.go
 * CinderDriverName "cinder.csi.openstack.org" from volumeID; rbd.go
 * RBDDriverName "rbd.csi.ceph.com").  The translation library also rewrites
 * the ids (an EBS "aws://zone/vol-1" becomes "vol-1", a PD name
 * "projects/UNSPECIFIED/zones/Z/disks/NAME"); kplan keeps the id as written,
 * which names the same disk for counting.
 *
 *   volumes: [{name: data, gcePersistentDisk: {pdName: d1}}]
 *     -> {name data, kind intree, source gcePersistentDisk,
 *         driver pd.csi.storage.gke.io, handle d1}
 */
#include "k8s_int.h"
#include "../common/quantity.h"

#include <stdio.h>
#include <string.h>

/* ---- shared pieces ---- */

/* a comma list of the strings of seq key (each one of allowed when given) */
static int get_list(kctx *c, const kp_ynode *m, const char *key, const char *path, const char *const *allowed,
		    const char **out)
{
	kp_strs s;
	*out = "";
	if (kp_k8s_get_strs(c, m, key, path, &s) != KP_OK)
		return KP_PARSE;
	size_t len = 1;
	for (size_t i = 0; i < s.n; i++) {
		int ok = !allowed;
		for (const char *const *a = allowed; a && *a; a++)
			ok |= !strcmp(*a, s.v[i]);
		if (!ok)
			return kp_k8s_bad(c, kp_ymap_get(m, key)->u.items[i], "%s[%zu]: '%s' is not a known value", path, i,
					  s.v[i]);
		len += strlen(s.v[i]) + 1;
	}
	if (!s.n)
		return KP_OK;
	char *r = kp_arena_alloc(c->a, len);
	if (!r)
		return kp_k8s_nomem(c);
	r[0] = 0;
	for (size_t i = 0; i < s.n; i++) {
		if (i)
			strcat(r, ",");
		strcat(r, s.v[i]);
	}
	*out = r;
	return KP_OK;
}

static const char *const access_modes[] = { "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod", NULL };
static const char *const volume_modes[] = { "Filesystem", "Block", NULL };

/* one quantity in bytes; *has = 0 when absent */
static int get_bytes(kctx *c, const kp_ynode *m, const char *key, const char *path, int64_t *out, int *has)
{
	const kp_ynode *q = kp_ymap_get(m, key);
	*has = q != NULL;
	if (!q)
		return KP_OK;
	if (q->type != KP_Y_SCALAR)
		return kp_k8s_bad(c, q, "%s: expected a quantity, got a %s", path, kp_ynode_type_name(q));
	kp_err qe = { 0 };
	if (kp_quantity_parse(q->u.str, 0, out, &qe) != KP_OK) {
		kp_err_set(c->err, qe.code, "%s: %s", path, qe.msg);
		kp_k8s_locate(c, c->err, q->line, q->col);
		return qe.code;
	}
	if (*out < 0)
		return kp_k8s_bad(c, q, "%s: negative quantity '%s'", path, q->u.str);
	return KP_OK;
}

/* the storage class of a PV or PVC: the beta annotation wins where kube reads
 * it first (GetPersistentVolumeClaimClass, GetPersistentVolumeClass) */
static int get_class(kctx *c, const kp_ynode *meta, const kp_ynode *spec, const char **out)
{
	const kp_ynode *ann;
	const char *beta = NULL;
	if (kp_k8s_get_map(c, meta, "annotations", "metadata.annotations", &ann) != KP_OK ||
	    kp_k8s_get_str(c, ann, "volume.beta.kubernetes.io/storage-class",
			   "metadata.annotations.volume.beta.kubernetes.io/storage-class", &beta) != KP_OK ||
	    kp_k8s_get_str(c, spec, "storageClassName", "spec.storageClassName", out) != KP_OK)
		return KP_PARSE;
	if (beta)
		*out = beta;
	return KP_OK;
}

/* a PersistentVolumeClaimSpec at m (path names it) */
static int get_claim_spec(kctx *c, const kp_ynode *m, const char *path, kp_claim_spec *out)
{
	char p[PATHMAX + 48];
	const kp_ynode *res;
	int has;
	memset(out, 0, sizeof *out);
	snprintf(p, sizeof p, "%s.storageClassName", path);
	if (kp_k8s_get_str(c, m, "storageClassName", p, &out->storage_class) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.accessModes", path);
	if (get_list(c, m, "accessModes", p, access_modes, &out->access_modes) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.volumeMode", path);
	if (kp_k8s_one_of(c, m, "volumeMode", p, volume_modes, &out->volume_mode) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.volumeName", path);
	if (kp_k8s_get_str(c, m, "volumeName", p, &out->volume_name) != KP_OK)
		return KP_PARSE;
	if (out->volume_name && !out->volume_name[0])
		out->volume_name = NULL;
	snprintf(p, sizeof p, "%s.volumeAttributesClassName", path);
	if (kp_k8s_get_str(c, m, "volumeAttributesClassName", p, &out->attributes_class) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.selector", path);
	if (kp_k8s_get_selector(c, m, "selector", p, &out->selector) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.resources", path);
	if (kp_k8s_get_map(c, m, "resources", p, &res) != KP_OK)
		return KP_PARSE;
	const kp_ynode *req;
	snprintf(p, sizeof p, "%s.resources.requests", path);
	if (kp_k8s_get_map(c, res, "requests", p, &req) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.resources.requests.storage", path);
	return get_bytes(c, req, "storage", p, &out->request, &has);
}

/* ---- volume sources ---- */

/* the in-tree sources kplan counts, their CSI driver by migration and id field */
static const struct intree { const char *key, *driver, *id; } intree[] = {
	{ "awsElasticBlockStore", "ebs.csi.aws.com", "volumeID" },
	{ "gcePersistentDisk", "pd.csi.storage.gke.io", "pdName" },
	{ "azureDisk", "disk.csi.azure.com", "diskURI" },
	{ "cinder", "cinder.csi.openstack.org", "volumeID" },
	{ "rbd", "rbd.csi.ceph.com", NULL },     /* pool/image */
	{ "iscsi", NULL, NULL },                 /* the iqn; no CSI translation */
};

/* PersistentVolumeSource's keys (core/v1 types.go), in-tree ones included */
static const char *const pv_sources[] = {
	"csi", "local", "hostPath", "awsElasticBlockStore", "gcePersistentDisk", "azureDisk", "cinder", "nfs",
	"rbd", "iscsi", "glusterfs", "cephfs", "fc", "flocker", "flexVolume", "azureFile", "vsphereVolume",
	"quobyte", "photonPersistentDisk", "portworxVolume", "scaleIO", "storageos", NULL
};

/* driver and handle of source key at m (a mapping), path names it */
static int source_ids(kctx *c, const char *key, const kp_ynode *m, const char *path, const char **driver,
		      const char **handle, int *read_only)
{
	char p[PATHMAX + 48];
	*driver = *handle = NULL;
	snprintf(p, sizeof p, "%s.readOnly", path);
	if (read_only && kp_k8s_get_bool(c, m, "readOnly", p, read_only) != KP_OK)
		return KP_PARSE;
	if (!strcmp(key, "csi")) {
		snprintf(p, sizeof p, "%s.driver", path);
		if (kp_k8s_get_str(c, m, "driver", p, driver) != KP_OK)
			return KP_PARSE;
		snprintf(p, sizeof p, "%s.volumeHandle", path);
		return kp_k8s_get_str(c, m, "volumeHandle", p, handle);
	}
	for (size_t i = 0; i < sizeof intree / sizeof *intree; i++) {
		if (strcmp(key, intree[i].key) != 0)
			continue;
		*driver = intree[i].driver;
		if (intree[i].id) {
			snprintf(p, sizeof p, "%s.%s", path, intree[i].id);
			return kp_k8s_get_str(c, m, intree[i].id, p, handle);
		}
		const char *a = NULL, *b = NULL;
		if (!strcmp(key, "rbd")) {
			snprintf(p, sizeof p, "%s.pool", path);
			if (kp_k8s_get_str(c, m, "pool", p, &a) != KP_OK)
				return KP_PARSE;
			snprintf(p, sizeof p, "%s.image", path);
			if (kp_k8s_get_str(c, m, "image", p, &b) != KP_OK)
				return KP_PARSE;
			*handle = kp_arena_printf(c->a, "%s/%s", a && a[0] ? a : "rbd", b ? b : "");
		} else {
			/* iSCSI: the iqn, what VolumeRestrictions compares (portal and LUN are not) */
			snprintf(p, sizeof p, "%s.iqn", path);
			if (kp_k8s_get_str(c, m, "iqn", p, &b) != KP_OK)
				return KP_PARSE;
			*handle = kp_arena_printf(c->a, "%s", b ? b : "");
		}
		return *handle ? KP_OK : kp_k8s_nomem(c);
	}
	return KP_OK;
}

/* one volume of a pod spec into v; *keep = 0 for kinds that do not matter */
static int get_volume(kctx *c, const kp_ynode *e, const char *path, kp_volume *v, int *keep)
{
	char p[PATHMAX + 64];
	const kp_ynode *src;
	*keep = 0;
	memset(v, 0, sizeof *v);
	if (e->type != KP_Y_MAP)
		return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(e));
	snprintf(p, sizeof p, "%s.name", path);
	if (kp_k8s_get_str(c, e, "name", p, &v->name) != KP_OK)
		return KP_PARSE;
	if (!v->name || !v->name[0])
		return kp_k8s_bad(c, e, "%s.name: required", path);
	snprintf(p, sizeof p, "%s.persistentVolumeClaim", path);
	if (kp_k8s_get_map(c, e, "persistentVolumeClaim", p, &src) != KP_OK)
		return KP_PARSE;
	if (src) {
		v->kind = "pvc";
		snprintf(p, sizeof p, "%s.persistentVolumeClaim.claimName", path);
		if (kp_k8s_get_str(c, src, "claimName", p, &v->claim) != KP_OK)
			return KP_PARSE;
		if (!v->claim || !v->claim[0])
			return kp_k8s_bad(c, src, "%s: required", p);
		snprintf(p, sizeof p, "%s.persistentVolumeClaim.readOnly", path);
		*keep = 1;
		return kp_k8s_get_bool(c, src, "readOnly", p, &v->read_only);
	}
	snprintf(p, sizeof p, "%s.ephemeral", path);
	if (kp_k8s_get_map(c, e, "ephemeral", p, &src) != KP_OK)
		return KP_PARSE;
	if (src) {
		const kp_ynode *t, *ts;
		v->kind = "ephemeral";
		snprintf(p, sizeof p, "%s.ephemeral.volumeClaimTemplate", path);
		if (kp_k8s_get_map(c, src, "volumeClaimTemplate", p, &t) != KP_OK)
			return KP_PARSE;
		if (!t)
			return kp_k8s_bad(c, src, "%s: required", p);
		snprintf(p, sizeof p, "%s.ephemeral.volumeClaimTemplate.spec", path);
		if (kp_k8s_get_map(c, t, "spec", p, &ts) != KP_OK)
			return KP_PARSE;
		if (!ts)
			return kp_k8s_bad(c, t, "%s: required", p);
		*keep = 1;
		return get_claim_spec(c, ts, p, &v->claim_spec);
	}
	snprintf(p, sizeof p, "%s.csi", path);
	if (kp_k8s_get_map(c, e, "csi", p, &src) != KP_OK)
		return KP_PARSE;
	if (src) {
		v->kind = "csi";
		*keep = 1;
		return source_ids(c, "csi", src, p, &v->driver, &v->handle, &v->read_only);
	}
	for (size_t i = 0; i < sizeof intree / sizeof *intree; i++) {
		snprintf(p, sizeof p, "%s.%s", path, intree[i].key);
		if (kp_k8s_get_map(c, e, intree[i].key, p, &src) != KP_OK)
			return KP_PARSE;
		if (!src)
			continue;
		v->kind = "intree";
		v->source = intree[i].key;
		*keep = 1;
		if (source_ids(c, intree[i].key, src, p, &v->driver, &v->handle, &v->read_only) != KP_OK)
			return KP_PARSE;
		if (strcmp(intree[i].key, "rbd") != 0)
			return KP_OK;
		/* VolumeRestrictions: two rbd volumes conflict when their monitors share one */
		snprintf(p, sizeof p, "%s.rbd.monitors", path);
		return get_list(c, src, "monitors", p, NULL, &v->monitors);
	}
	return KP_OK;
}

int kp_k8s_get_volumes(kctx *c, const kp_ynode *vols, kp_pod_in *pod)
{
	if (!vols || !vols->n)
		return KP_OK;
	pod->volumes = kp_arena_alloc(c->a, vols->n * sizeof *pod->volumes);
	if (!pod->volumes)
		return kp_k8s_nomem(c);
	size_t n = 0;
	for (size_t i = 0; i < vols->n; i++) {
		char p[PATHMAX];
		int keep;
		snprintf(p, sizeof p, "spec.volumes[%zu]", i);
		if (get_volume(c, vols->u.items[i], p, &pod->volumes[n], &keep) != KP_OK)
			return KP_PARSE;
		n += keep;
	}
	pod->nvolumes = n;
	return KP_OK;
}

int kp_k8s_get_claim_templates(kctx *c, const kp_ynode *vct, kp_workload_in *w)
{
	if (!vct || !vct->n)
		return KP_OK;
	w->claims = kp_arena_alloc(c->a, vct->n * sizeof *w->claims);
	if (!w->claims)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < vct->n; i++) {
		const kp_ynode *e = vct->u.items[i], *meta, *spec;
		kp_claim_template *t = &w->claims[i];
		char p[PATHMAX], q[PATHMAX + 32];
		snprintf(p, sizeof p, "spec.volumeClaimTemplates[%zu]", i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		snprintf(q, sizeof q, "%s.metadata", p);
		if (kp_k8s_get_map(c, e, "metadata", q, &meta) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.metadata.name", p);
		if (kp_k8s_get_str(c, meta, "name", q, &t->name) != KP_OK)
			return KP_PARSE;
		if (!t->name || !t->name[0])
			return kp_k8s_bad(c, meta ? meta : e, "%s: required", q);
		snprintf(q, sizeof q, "%s.spec", p);
		if (kp_k8s_get_map(c, e, "spec", q, &spec) != KP_OK)
			return KP_PARSE;
		if (get_claim_spec(c, spec, q, &t->spec) != KP_OK)
			return KP_PARSE;
	}
	w->nclaims = vct->n;
	return KP_OK;
}

/* ---- the kinds ---- */

int kp_k8s_read_storage_class(kctx *c, const objhead *h)
{
	static const char *const modes[] = { "Immediate", "WaitForFirstConsumer", NULL };
	kp_storage_class_in sc;
	memset(&sc, 0, sizeof sc);
	sc.pos = (kp_pos){ h->obj->line, h->obj->col };
	sc.name = h->name;
	const kp_ynode *ann, *topo;
	const char *def = NULL, *beta = NULL;
	if (kp_k8s_get_str(c, h->obj, "provisioner", "provisioner", &sc.provisioner) != KP_OK ||
	    kp_k8s_one_of(c, h->obj, "volumeBindingMode", "volumeBindingMode", modes, &sc.binding_mode) != KP_OK ||
	    kp_k8s_get_map(c, h->meta, "annotations", "metadata.annotations", &ann) != KP_OK ||
	    kp_k8s_get_str(c, ann, "storageclass.kubernetes.io/is-default-class",
			   "metadata.annotations.storageclass.kubernetes.io/is-default-class", &def) != KP_OK ||
	    kp_k8s_get_str(c, ann, "storageclass.beta.kubernetes.io/is-default-class",
			   "metadata.annotations.storageclass.beta.kubernetes.io/is-default-class", &beta) != KP_OK ||
	    kp_k8s_get_seq(c, h->obj, "allowedTopologies", "allowedTopologies", &topo) != KP_OK)
		return KP_PARSE;
	if (!sc.provisioner || !sc.provisioner[0])
		return kp_k8s_bad(c, h->obj, "provisioner: required");
	/* IsDefaultAnnotation: either annotation "true" */
	sc.is_default = (def && !strcmp(def, "true")) || (beta && !strcmp(beta, "true"));
	sc.has_topologies = topo != NULL;
	if (topo && topo->n) {
		static const char *const in_only[] = { "In", NULL };
		sc.topologies = kp_arena_alloc(c->a, topo->n * sizeof *sc.topologies);
		if (!sc.topologies)
			return kp_k8s_nomem(c);
		memset(sc.topologies, 0, topo->n * sizeof *sc.topologies);
		for (size_t i = 0; i < topo->n; i++) {
			const kp_ynode *t = topo->u.items[i], *mle;
			kp_node_term *nt = &sc.topologies[i];
			char p[PATHMAX];
			snprintf(p, sizeof p, "allowedTopologies[%zu].matchLabelExpressions", i);
			if (t->type != KP_Y_MAP)
				return kp_k8s_bad(c, t, "allowedTopologies[%zu]: expected a mapping", i);
			if (kp_k8s_get_seq(c, t, "matchLabelExpressions", p, &mle) != KP_OK)
				return KP_PARSE;
			/* {key, values}: an In requirement (TopologySelectorLabelRequirement) */
			nt->exprs = mle && mle->n ? kp_arena_alloc(c->a, mle->n * sizeof *nt->exprs) : NULL;
			for (size_t j = 0; mle && j < mle->n; j++) {
				const kp_ynode *r = mle->u.items[j];
				char q[PATHMAX + 32];
				snprintf(q, sizeof q, "%s[%zu]", p, j);
				if (!nt->exprs)
					return kp_k8s_nomem(c);
				if (r->type != KP_Y_MAP)
					return kp_k8s_bad(c, r, "%s: expected a mapping", q);
				kp_req *x = &nt->exprs[j];
				x->op = in_only[0];
				snprintf(q, sizeof q, "%s[%zu].key", p, j);
				if (kp_k8s_get_str(c, r, "key", q, &x->key) != KP_OK)
					return KP_PARSE;
				if (!x->key || !x->key[0])
					return kp_k8s_bad(c, r, "%s: required", q);
				snprintf(q, sizeof q, "%s[%zu].values", p, j);
				if (kp_k8s_get_strs(c, r, "values", q, &x->values) != KP_OK)
					return KP_PARSE;
			}
			nt->nexprs = mle ? mle->n : 0;
		}
		sc.ntopologies = topo->n;
	}
	return kp_import_storage_class(c->imp, c->file, &sc, c->err);
}

int kp_k8s_read_pv(kctx *c, const objhead *h)
{
	static const char *const phases[] = { "Pending", "Available", "Bound", "Released", "Failed", NULL };
	kp_pv_in pv;
	memset(&pv, 0, sizeof pv);
	pv.pos = (kp_pos){ h->obj->line, h->obj->col };
	pv.name = h->name;
	const kp_ynode *ref, *na, *req, *terms, *cap;
	int has;
	if (kp_k8s_get_kvs(c, h->meta, "labels", "metadata.labels", &pv.labels) != KP_OK ||
	    get_class(c, h->meta, h->spec, &pv.storage_class) != KP_OK ||
	    kp_k8s_get_map(c, h->spec, "capacity", "spec.capacity", &cap) != KP_OK ||
	    get_bytes(c, cap, "storage", "spec.capacity.storage", &pv.capacity, &has) != KP_OK ||
	    get_list(c, h->spec, "accessModes", "spec.accessModes", access_modes, &pv.access_modes) != KP_OK ||
	    kp_k8s_one_of(c, h->spec, "volumeMode", "spec.volumeMode", volume_modes, &pv.volume_mode) != KP_OK ||
	    kp_k8s_one_of(c, h->status, "phase", "status.phase", phases, &pv.phase) != KP_OK ||
	    kp_k8s_get_map(c, h->spec, "claimRef", "spec.claimRef", &ref) != KP_OK ||
	    kp_k8s_get_str(c, ref, "namespace", "spec.claimRef.namespace", &pv.claim_ns) != KP_OK ||
	    kp_k8s_get_str(c, ref, "name", "spec.claimRef.name", &pv.claim_name) != KP_OK ||
	    kp_k8s_get_str(c, ref, "uid", "spec.claimRef.uid", &pv.claim_uid) != KP_OK ||
	    kp_k8s_get_map(c, h->spec, "nodeAffinity", "spec.nodeAffinity", &na) != KP_OK ||
	    kp_k8s_get_map(c, na, "required", "spec.nodeAffinity.required", &req) != KP_OK ||
	    kp_k8s_get_seq(c, req, "nodeSelectorTerms", "spec.nodeAffinity.required.nodeSelectorTerms", &terms) != KP_OK ||
	    kp_k8s_get_str(c, h->spec, "volumeAttributesClassName", "spec.volumeAttributesClassName",
			   &pv.attributes_class) != KP_OK)
		return KP_PARSE;
	if (!pv.storage_class)
		pv.storage_class = "";
	pv.deleting = kp_ymap_get(h->meta, "deletionTimestamp") != NULL;
	pv.source = "";
	for (const char *const *k = pv_sources; *k; k++) {
		char p[PATHMAX];
		const kp_ynode *src;
		snprintf(p, sizeof p, "spec.%s", *k);
		if (kp_k8s_get_map(c, h->spec, *k, p, &src) != KP_OK)
			return KP_PARSE;
		if (!src)
			continue;
		pv.source = *k;
		if (source_ids(c, *k, src, p, &pv.driver, &pv.handle, NULL) != KP_OK)
			return KP_PARSE;
		break;
	}
	pv.has_affinity = req != NULL;
	if (terms && terms->n) {
		pv.terms = kp_arena_alloc(c->a, terms->n * sizeof *pv.terms);
		if (!pv.terms)
			return kp_k8s_nomem(c);
		memset(pv.terms, 0, terms->n * sizeof *pv.terms);
		for (size_t i = 0; i < terms->n; i++) {
			char p[PATHMAX];
			snprintf(p, sizeof p, "spec.nodeAffinity.required.nodeSelectorTerms[%zu]", i);
			if (kp_k8s_get_node_term(c, terms->u.items[i], p, &pv.terms[i]) != KP_OK)
				return KP_PARSE;
		}
		pv.nterms = terms->n;
	}
	return kp_import_pv(c->imp, c->file, &pv, c->err);
}

int kp_k8s_read_pvc(kctx *c, const objhead *h)
{
	static const char *const phases[] = { "Pending", "Bound", "Lost", NULL };
	kp_pvc_in pvc;
	memset(&pvc, 0, sizeof pvc);
	pvc.pos = (kp_pos){ h->obj->line, h->obj->col };
	pvc.namespace_ = h->namespace_;
	pvc.name = h->name;
	const kp_ynode *ann;
	const char *cls, *bound = NULL;
	if (get_claim_spec(c, h->spec, "spec", &pvc.spec) != KP_OK || get_class(c, h->meta, h->spec, &cls) != KP_OK ||
	    kp_k8s_one_of(c, h->status, "phase", "status.phase", phases, &pvc.phase) != KP_OK ||
	    kp_k8s_get_map(c, h->meta, "annotations", "metadata.annotations", &ann) != KP_OK ||
	    kp_k8s_get_str(c, ann, "volume.kubernetes.io/selected-node",
			   "metadata.annotations.volume.kubernetes.io/selected-node", &pvc.selected_node) != KP_OK ||
	    kp_k8s_get_str(c, ann, "pv.kubernetes.io/bind-completed",
			   "metadata.annotations.pv.kubernetes.io/bind-completed", &bound) != KP_OK ||
	    kp_k8s_get_owner(c, h->meta, &pvc.owner) != KP_OK)
		return KP_PARSE;
	pvc.spec.storage_class = cls;
	/* isPVCFullyBound: the annotation's presence counts, whatever its value */
	pvc.bind_completed = bound != NULL;
	pvc.deleting = kp_ymap_get(h->meta, "deletionTimestamp") != NULL;
	return kp_import_pvc(c->imp, c->file, &pvc, c->err);
}

int kp_k8s_read_csi_node(kctx *c, const objhead *h)
{
	kp_csi_node_in cn;
	memset(&cn, 0, sizeof cn);
	cn.pos = (kp_pos){ h->obj->line, h->obj->col };
	cn.name = h->name;
	const kp_ynode *drv, *ann;
	if (kp_k8s_get_seq(c, h->spec, "drivers", "spec.drivers", &drv) != KP_OK ||
	    kp_k8s_get_map(c, h->meta, "annotations", "metadata.annotations", &ann) != KP_OK ||
	    kp_k8s_get_str(c, ann, "storage.alpha.kubernetes.io/migrated-plugins",
			   "metadata.annotations.storage.alpha.kubernetes.io/migrated-plugins", &cn.migrated_plugins) != KP_OK)
		return KP_PARSE;
	if (drv && drv->n) {
		cn.drivers = kp_arena_alloc(c->a, drv->n * sizeof *cn.drivers);
		if (!cn.drivers)
			return kp_k8s_nomem(c);
		for (size_t i = 0; i < drv->n; i++) {
			const kp_ynode *e = drv->u.items[i], *al;
			kp_csi_node_driver *d = &cn.drivers[i];
			char p[PATHMAX], q[PATHMAX + 48];
			memset(d, 0, sizeof *d);
			snprintf(p, sizeof p, "spec.drivers[%zu]", i);
			if (e->type != KP_Y_MAP)
				return kp_k8s_bad(c, e, "%s: expected a mapping", p);
			snprintf(q, sizeof q, "%s.name", p);
			if (kp_k8s_get_str(c, e, "name", q, &d->name) != KP_OK)
				return KP_PARSE;
			if (!d->name || !d->name[0])
				return kp_k8s_bad(c, e, "%s: required", q);
			snprintf(q, sizeof q, "%s.topologyKeys", p);
			if (get_list(c, e, "topologyKeys", q, NULL, &d->topology_keys) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.allocatable", p);
			if (kp_k8s_get_map(c, e, "allocatable", q, &al) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.allocatable.count", p);
			if (kp_k8s_get_int(c, al, "count", q, &d->allocatable, &d->has_allocatable) != KP_OK)
				return KP_PARSE;
			if (d->has_allocatable && (d->allocatable < 0 || d->allocatable > INT32_MAX))
				return kp_k8s_bad(c, kp_ymap_get(al, "count"), "%s: must be in 0..%d", q, INT32_MAX);
		}
		cn.ndrivers = drv->n;
	}
	return kp_import_csi_node(c->imp, c->file, &cn, c->err);
}

int kp_k8s_read_csi_driver(kctx *c, const objhead *h)
{
	static const char *const lifecycle[] = { "Persistent", "Ephemeral", NULL };
	kp_csi_driver_in d;
	memset(&d, 0, sizeof d);
	d.pos = (kp_pos){ h->obj->line, h->obj->col };
	d.name = h->name;
	d.attach_required = 1;   /* defaulted to true by the API server */
	if ((kp_ymap_get(h->spec, "attachRequired") &&
	     kp_k8s_get_bool(c, h->spec, "attachRequired", "spec.attachRequired", &d.attach_required) != KP_OK) ||
	    kp_k8s_get_bool(c, h->spec, "storageCapacity", "spec.storageCapacity", &d.storage_capacity) != KP_OK ||
	    get_list(c, h->spec, "volumeLifecycleModes", "spec.volumeLifecycleModes", lifecycle, &d.lifecycle_modes) != KP_OK)
		return KP_PARSE;
	if (!d.lifecycle_modes[0])
		d.lifecycle_modes = NULL;
	return kp_import_csi_driver(c->imp, c->file, &d, c->err);
}

int kp_k8s_read_csi_capacity(kctx *c, const objhead *h)
{
	kp_csi_capacity_in sc;
	memset(&sc, 0, sizeof sc);
	sc.pos = (kp_pos){ h->obj->line, h->obj->col };
	sc.namespace_ = h->namespace_;
	sc.name = h->name;
	if (kp_k8s_get_str(c, h->obj, "storageClassName", "storageClassName", &sc.storage_class) != KP_OK ||
	    kp_k8s_get_selector(c, h->obj, "nodeTopology", "nodeTopology", &sc.node_topology) != KP_OK ||
	    get_bytes(c, h->obj, "capacity", "capacity", &sc.capacity, &sc.has_capacity) != KP_OK ||
	    get_bytes(c, h->obj, "maximumVolumeSize", "maximumVolumeSize", &sc.maximum, &sc.has_maximum) != KP_OK)
		return KP_PARSE;
	if (!sc.storage_class || !sc.storage_class[0])
		return kp_k8s_bad(c, h->obj, "storageClassName: required");
	return kp_import_csi_capacity(c->imp, c->file, &sc, c->err);
}
