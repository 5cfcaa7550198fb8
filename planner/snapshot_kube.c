/*
 * snapshot_kube.c — what the kube version planned as changes in the loaded
 * cluster (docs/kube-versions.md), from the tables of schema.sql's kube
 * section: the classes' requests when PodLevelResources (before 1.34) or
 * InPlacePodVerticalScaling (before 1.33) is off — class_request holds
 * kube 1.37's, class_request_alt the others —, the node features each
 * class requires and each node declares (NodeDeclaredFeatures).  A
 * database imported before these tables has none of them: nothing changes.
 * Called by kp_snap_load after the classes, before the pods take room.
 */
#include "snapshot_int.h"

#include <string.h>

/* the class_request_alt variant of s->kube: 0 = class_request */
static int request_variant(const kp_snap *s)
{
	return (kp_kube_on(&s->kube, KP_FG_POD_LEVEL_RESOURCES) ? 0 : 1) |
	       (kp_kube_on(&s->kube, KP_FG_IN_PLACE_POD_VERTICAL_SCALING) ? 0 : 2);
}

static int resource_index(const kp_snap *s, const char *name)
{
	kp_sid r = kp_strtab_find(&s->strs, name);
	for (int k = 0; r >= 0 && k < s->nres; k++)
		if (s->res_name[k] == r)
			return k;
	return -1;
}

/* every class with rows of variant v gets them instead of class_request's */
static int load_request_variant(kp_loader *L, int v)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	if (kp_ld_prepare(L, kp_sql_snapshot_class_request_alt_count, &st))
		return L->err->code;
	sqlite3_bind_int(st, 1, v);
	int rc = KP_OK;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		int ci = kp_ld_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		size_t n = (size_t)sqlite3_column_int(st, 1);
		c->nreq = 0;
		c->nz_cpu = c->nz_mem = 0;
		if (!(c->req_res = kp_ld_alloc(L, n * sizeof *c->req_res)) || !(c->req_val = kp_ld_alloc(L, n * sizeof *c->req_val)))
			rc = kp_ld_nomem(L);
	}
	sqlite3_finalize(st);
	if (rc || kp_ld_prepare(L, kp_sql_snapshot_class_request_alt, &st))
		return rc ? rc : L->err->code;
	sqlite3_bind_int(st, 1, v);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = kp_ld_class(L, sqlite3_column_int64(st, 0));
		if (ci < 0)
			continue;
		kp_class *c = &s->classes[ci];
		const char *name = kp_ld_col(st, 2);
		int64_t val = sqlite3_column_int64(st, 3);
		if (sqlite3_column_int(st, 1)) {
			if (!strcmp(name, "cpu"))
				c->nz_cpu = val;
			else if (!strcmp(name, "memory"))
				c->nz_mem = val;
			continue;
		}
		int k = resource_index(s, name);
		if (k >= 0) {
			c->req_res[c->nreq] = (uint16_t)k;
			c->req_val[c->nreq++] = val;
		}
	}
	sqlite3_finalize(st);
	return KP_OK;
}

/* rows (id, feature) sorted by id: per class (is_node 0) or node, the sorted
 * features; a class keeps those the planned version infers */
static int load_features(kp_loader *L, const char *sql, int is_node)
{
	kp_snap *s = L->s;
	sqlite3_stmt *st;
	if (kp_ld_prepare(L, sql, &st))
		return L->err->code;
	int rc = KP_OK;
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		int i = is_node ? kp_snap_node_index(s, id) : kp_ld_class(L, id);
		if (i < 0)
			continue;
		/* a pod's requirement the planned version's registry does not have:
		 * its kube-scheduler does not infer it */
		int since = is_node ? 0 : kp_kube_ndf_minor((const char *)sqlite3_column_text(st, 1));
		if (!is_node && (!since || since > s->kube.minor))
			continue;
		uint32_t *n = is_node ? &s->nnode_features[i] : &s->classes[i].nfeatures;
		kp_sid **v = is_node ? &s->node_features[i] : &s->classes[i].features;
		kp_sid *grown = kp_ld_alloc(L, (*n + 1) * sizeof **v);   /* few per node: copy on growth */
		if (!grown) {
			rc = kp_ld_nomem(L);
			break;
		}
		if (*n)
			memcpy(grown, *v, *n * sizeof **v);
		grown[(*n)++] = kp_ld_intern(L, sqlite3_column_text(st, 1));
		*v = grown;
	}
	sqlite3_finalize(st);
	return rc;
}

static int load_inputs(kp_loader *L)
{
	sqlite3_stmt *st;
	if (kp_ld_prepare(L, kp_sql_snapshot_class_kube_input, &st))
		return L->err->code;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int ci = kp_ld_class(L, sqlite3_column_int64(st, 0));
		const char *in = kp_ld_col(st, 1);
		if (ci >= 0)
			L->s->classes[ci].kube_inputs |= !strcmp(in, "pod-level-resources") ? KP_KIN_POD_LEVEL
							: !strcmp(in, "resize-status") ? KP_KIN_RESIZE
							: !strcmp(in, "init-resize-status") || !strcmp(in, "pod-resize-status")
								? KP_KIN_RESIZE_UNMODELLED : 0;
	}
	sqlite3_finalize(st);
	return KP_OK;
}

int kp_snap_load_kube(kp_loader *L)
{
	kp_snap *s = L->s;
	s->nnode_features = kp_ld_alloc(L, (size_t)s->nnodes * sizeof *s->nnode_features);
	s->node_features = kp_ld_alloc(L, (size_t)s->nnodes * sizeof *s->node_features);
	if (!s->nnode_features || !s->node_features)
		return kp_ld_nomem(L);
	memset(s->nnode_features, 0, (size_t)s->nnodes * sizeof *s->nnode_features);
	memset(s->node_features, 0, (size_t)s->nnodes * sizeof *s->node_features);
	if (!kp_ld_has_sql(L, kp_sql_snapshot_class_feature))
		return KP_OK;   /* imported before the kube section */
	int v = request_variant(s), rc = KP_OK;
	if (v)
		rc = load_request_variant(L, v);
	if (!rc)
		rc = load_features(L, kp_sql_snapshot_class_feature, 0);
	if (!rc)
		rc = load_features(L, kp_sql_snapshot_node_feature, 1);
	if (!rc)
		rc = load_inputs(L);
	return rc;
}
