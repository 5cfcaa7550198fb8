/*
 * snapshot_storage.c — the storage part of the snapshot (storage.h): storage
 * classes with their CSIStorageCapacity objects, PersistentVolumes with
 * their labels and node affinity, claims, each pod's volumes and the
 * CSINodes (attach limits, migrated in-tree plugins), from the tables of
 * schema.sql's storage section (queries/snapshot/storage_*.sql).  Nothing is
 * loaded, and kp_snap.st stays NULL, when no pod has a volume and no CSINode
 * was imported.
 */
#include "snapshot_int.h"
#include "storage.h"
#include "cycle.h"     /* kp_dmap */

#include <stdio.h>
#include <string.h>

static const char *const it_source[KP_IT_COUNT] = { "awsElasticBlockStore", "gcePersistentDisk", "azureDisk", "cinder" };
static const char *const it_plugin[KP_IT_COUNT] = { "kubernetes.io/aws-ebs", "kubernetes.io/gce-pd",
						   "kubernetes.io/azure-disk", "kubernetes.io/cinder" };
static const char *const it_driver[KP_IT_COUNT] = { "ebs.csi.aws.com", "pd.csi.storage.gke.io", "disk.csi.azure.com",
						   "cinder.csi.openstack.org" };

static int8_t intree_index(const char *const *names, const char *v)
{
	for (int i = 0; v && i < KP_IT_COUNT; i++)
		if (!strcmp(names[i], v))
			return (int8_t)i;
	return -1;
}

static uint8_t access_modes(const char *list)
{
	uint8_t m = 0;
	if (!list)
		return 0;
	m |= strstr(list, "ReadWriteOncePod") ? KP_AM_RWOP : 0;
	/* ReadWriteOnce is a prefix of ReadWriteOncePod: look for it whole */
	for (const char *p = list; (p = strstr(p, "ReadWriteOnce")); p += 13)
		if (p[13] == ',' || p[13] == 0)
			m |= KP_AM_RWO;
	m |= strstr(list, "ReadOnlyMany") ? KP_AM_ROX : 0;
	m |= strstr(list, "ReadWriteMany") ? KP_AM_RWX : 0;
	return m;
}

static int count_rows(kp_loader *L, const char *table, int *n)
{
	char sql[96];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
	return kp_ld_count(L, sql, n);
}

/* kp_ld_terms (snapshot_int.h) */
int kp_ld_terms(kp_loader *L, const char *text, kp_nterm **out, uint32_t *n, const char *ctx)
{
	*out = NULL;
	*n = 0;
	if (!text)
		return KP_OK;
	kp_json *j = kp_json_parse(text, &L->tmp);
	if (!j || j->type != KP_J_ARR)
		return kp_err_set(L->err, KP_PARSE, "malformed %s in the database: %s", ctx, text);
	*out = kp_ld_alloc(L, j->n * sizeof **out);
	if (!*out)
		return kp_ld_nomem(L);
	memset(*out, 0, (j->n ? j->n : 1) * sizeof **out);
	for (size_t i = 0; i < j->n; i++) {
		kp_json *t = j->items[i];
		kp_nterm *nt = &(*out)[i];
		if (t->type != KP_J_OBJ)
			return kp_err_set(L->err, KP_PARSE, "malformed %s in the database: %s", ctx, text);
		for (size_t k = 0; k < t->n; k++) {
			const char *key = t->items[2 * k]->str;
			kp_json *rs = t->items[2 * k + 1];
			int field = !strcmp(key, "matchFields");
			if (rs->type != KP_J_ARR)
				return kp_err_set(L->err, KP_PARSE, "malformed %s in the database: %s", ctx, text);
			kp_sreq *r = kp_ld_alloc(L, rs->n * sizeof *r);
			if (!r)
				return kp_ld_nomem(L);
			memset(r, 0, (rs->n ? rs->n : 1) * sizeof *r);
			for (size_t e = 0; e < rs->n; e++) {
				kp_json *x = rs->items[e];
				if (x->type != KP_J_ARR || x->n != 3 || x->items[0]->type != KP_J_STR || x->items[1]->type != KP_J_STR)
					return kp_err_set(L->err, KP_PARSE, "malformed %s in the database: %s", ctx, text);
				if (kp_ld_req(L, &r[e], x->items[0]->str, x->items[1]->str, x->items[2], ctx))
					return L->err->code;
			}
			if (field) {
				nt->fields = r;
				nt->nfields = (uint32_t)rs->n;
			} else {
				nt->exprs = r;
				nt->nexprs = (uint32_t)rs->n;
			}
		}
	}
	*n = (uint32_t)j->n;
	return KP_OK;
}

/* ---- classes and capacities ---- */

static int load_classes(kp_loader *L, kp_storage *st, kp_sid *default_class)
{
	sqlite3_stmt *q;
	int rc = count_rows(L, "storage_class", &st->nclasses);
	if (rc)
		return rc;
	st->classes = kp_ld_alloc(L, (size_t)st->nclasses * sizeof *st->classes);
	if (!st->classes)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_storage_classes, &q))
		return L->err->code;
	int i = 0;
	while (!rc && i < st->nclasses && sqlite3_step(q) == SQLITE_ROW) {
		kp_sclass *c = &st->classes[i++];
		memset(c, 0, sizeof *c);
		c->name = kp_ld_intern(L, sqlite3_column_text(q, 0));
		c->provisioner = kp_ld_intern(L, sqlite3_column_text(q, 1));
		c->wffc = (uint8_t)sqlite3_column_int(q, 2);
		c->capacity_tracking = (uint8_t)sqlite3_column_int(q, 4);
		c->intree = intree_index(it_plugin, kp_ld_col(q, 1));
		c->no_provisioner = !kp_ld_col(q, 1) || !kp_ld_col(q, 1)[0] || !strcmp(kp_ld_col(q, 1), "kubernetes.io/no-provisioner");
		c->csi_driver = c->intree >= 0 ? kp_strtab_intern(&L->s->strs, it_driver[c->intree]) : c->provisioner;
		if (sqlite3_column_int(q, 5))
			*default_class = c->name;
		rc = kp_ld_terms(L, kp_ld_col(q, 3), &c->terms, &c->nterms, "allowedTopologies");
		if (!rc && (c->name < 0 || c->provisioner < 0 || c->csi_driver < 0))
			rc = kp_ld_nomem(L);
	}
	sqlite3_finalize(q);
	st->nclasses = i;
	if (rc)
		return rc;
	/* capacities, grouped by class name */
	if ((rc = count_rows(L, "csi_storage_capacity", &st->ncaps)))
		return rc;
	st->caps = kp_ld_alloc(L, (size_t)st->ncaps * sizeof *st->caps);
	if (!st->caps)
		return kp_ld_nomem(L);
	for (int k = 0; k < st->nclasses; k++)
		st->classes[k].cap_first = 0;
	if (kp_ld_prepare(L, kp_sql_snapshot_storage_capacities, &q))
		return L->err->code;
	i = 0;
	while (!rc && i < st->ncaps && sqlite3_step(q) == SQLITE_ROW) {
		kp_scap *c = &st->caps[i];
		kp_sid cls = kp_ld_intern(L, sqlite3_column_text(q, 0));
		c->limit = sqlite3_column_type(q, 3) != SQLITE_NULL ? sqlite3_column_int64(q, 3)
			   : sqlite3_column_type(q, 2) != SQLITE_NULL ? sqlite3_column_int64(q, 2) : -1;
		c->ns = kp_ld_intern(L, sqlite3_column_text(q, 4));
		c->name = kp_ld_intern(L, sqlite3_column_text(q, 5));
		rc = kp_ld_sel(L, kp_ld_col(q, 1), &c->topo);
		for (int k = 0; k < st->nclasses && !rc; k++)
			if (st->classes[k].name == cls) {
				if (!st->classes[k].cap_n)
					st->classes[k].cap_first = i;
				st->classes[k].cap_n++;
			}
		i++;
	}
	sqlite3_finalize(q);
	st->ncaps = i;
	return rc;
}

/* ---- persistent volumes ---- */

static int load_pv_labels(kp_loader *L, kp_storage *st, kp_dmap *pv_by_name)
{
	sqlite3_stmt *q;
	if (kp_ld_prepare(L, kp_sql_snapshot_storage_pv_labels, &q))
		return L->err->code;
	int rc = KP_OK;
	/* rows are grouped by PV: count, then fill */
	while (!rc && sqlite3_step(q) == SQLITE_ROW) {
		int64_t *pi = kp_dmap_get(pv_by_name, kp_strtab_find(&L->s->strs, kp_ld_col(q, 0)));
		if (pi)
			st->pvs[*pi].labels.n++;
	}
	sqlite3_reset(q);
	for (int i = 0; i < st->npvs && !rc; i++) {
		st->pvs[i].labels.v = kp_ld_alloc(L, st->pvs[i].labels.n * sizeof(kp_label));
		if (!st->pvs[i].labels.v)
			rc = kp_ld_nomem(L);
		st->pvs[i].labels.n = 0;
	}
	while (!rc && sqlite3_step(q) == SQLITE_ROW) {
		int64_t *pi = kp_dmap_get(pv_by_name, kp_strtab_find(&L->s->strs, kp_ld_col(q, 0)));
		if (!pi)
			continue;
		kp_labels *l = &st->pvs[*pi].labels;
		l->v[l->n].key = kp_ld_intern(L, sqlite3_column_text(q, 1));
		l->v[l->n].value = kp_ld_intern(L, sqlite3_column_text(q, 2));
		if (l->v[l->n].key < 0 || l->v[l->n].value < 0)
			rc = kp_ld_nomem(L);
		l->n++;
	}
	sqlite3_finalize(q);
	for (int i = 0; i < st->npvs && !rc; i++)
		kp_sort(st->pvs[i].labels.v, st->pvs[i].labels.n, sizeof(kp_label), kp_ld_cmp_label, NULL);
	return rc;
}

static int pv_row(kp_loader *L, kp_storage *st, kp_pv *pv, sqlite3_stmt *q)
{
	memset(pv, 0, sizeof *pv);
	pv->db_id = sqlite3_column_int64(q, 0);
	pv->name = kp_ld_intern(L, sqlite3_column_text(q, 1));
	pv->cls = kp_ld_col(q, 2) && kp_ld_col(q, 2)[0] ? kp_ld_intern(L, sqlite3_column_text(q, 2)) : -1;
	pv->capacity = sqlite3_column_int64(q, 3);
	pv->modes = access_modes(kp_ld_col(q, 4));
	pv->block = kp_ld_col(q, 5) && !strcmp(kp_ld_col(q, 5), "Block");
	pv->available = kp_ld_col(q, 6) && !strcmp(kp_ld_col(q, 6), "Available");
	pv->claim_ns = kp_ld_intern(L, sqlite3_column_text(q, 7));
	pv->claim_name = kp_ld_intern(L, sqlite3_column_text(q, 8));
	const char *src = kp_ld_col(q, 9);
	pv->csi = src && !strcmp(src, "csi");
	pv->intree = intree_index(it_source, src);
	pv->driver = kp_ld_intern(L, sqlite3_column_text(q, 10));
	const char *h = kp_ld_col(q, 11);
	if (pv->intree == KP_IT_AWS_EBS && h && !strncmp(h, "aws://", 6) && strrchr(h, '/'))
		h = strrchr(h, '/') + 1;   /* KubernetesVolumeIDToEBSVolumeID */
	char *u = kp_arena_printf(&L->tmp, "%s/%s", kp_ld_col(q, 10) ? kp_ld_col(q, 10) : "", h ? h : "");
	pv->unique = u ? kp_strtab_intern(&L->s->strs, u) : -1;
	pv->has_affinity = sqlite3_column_type(q, 12) != SQLITE_NULL;
	pv->deleting = (uint8_t)sqlite3_column_int(q, 13);
	pv->attr_class = kp_ld_intern(L, sqlite3_column_text(q, 14));
	pv->taken = -1;
	if (pv->name < 0 || pv->unique < 0)
		return kp_ld_nomem(L);
	(void)st;
	return kp_ld_terms(L, kp_ld_col(q, 12), &pv->terms, &pv->nterms, "PV node affinity");
}

static int load_pvs(kp_loader *L, kp_storage *st, kp_dmap *pv_by_name)
{
	sqlite3_stmt *q;
	int rc = count_rows(L, "pv", &st->npvs);
	if (rc)
		return rc;
	st->pvs = kp_ld_alloc(L, (size_t)st->npvs * sizeof *st->pvs);
	if (!st->pvs)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_storage_pvs, &q))
		return L->err->code;
	int i = 0;
	while (!rc && i < st->npvs && sqlite3_step(q) == SQLITE_ROW) {
		rc = pv_row(L, st, &st->pvs[i], q);
		int64_t *slot = rc ? NULL : kp_dmap_put(pv_by_name, st->pvs[i].name);
		if (!rc && !slot)
			rc = kp_ld_nomem(L);
		if (!rc)
			*slot = i;
		i++;
	}
	sqlite3_finalize(q);
	st->npvs = i;
	return rc ? rc : load_pv_labels(L, st, pv_by_name);
}

/* ---- claims ---- */

static int claim_row(kp_loader *L, kp_storage *st, kp_claim *c, sqlite3_stmt *q, kp_sid default_class,
		     const kp_dmap *pv_by_name)
{
	memset(c, 0, sizeof *c);
	c->db_id = sqlite3_column_int64(q, 0);
	c->ns = kp_ld_intern(L, sqlite3_column_text(q, 1));
	c->name = kp_ld_intern(L, sqlite3_column_text(q, 2));
	/* an unset class: the default one, as the admission plugin sets it */
	c->cls_name = sqlite3_column_type(q, 3) == SQLITE_NULL ? default_class
		      : kp_ld_col(q, 3)[0] ? kp_ld_intern(L, sqlite3_column_text(q, 3)) : -1;
	c->sc = -1;
	for (int k = 0; k < st->nclasses && c->cls_name >= 0; k++)
		if (st->classes[k].name == c->cls_name)
			c->sc = k;
	c->request = sqlite3_column_int64(q, 4);
	c->modes = access_modes(kp_ld_col(q, 5));
	c->block = kp_ld_col(q, 6) && !strcmp(kp_ld_col(q, 6), "Block");
	c->volume_name = kp_ld_intern(L, sqlite3_column_text(q, 7));
	const char *phase = kp_ld_col(q, 8);
	c->lost = phase && !strcmp(phase, "Lost");
	/* bound: volumeName and the bind-completed annotation (isPVCFullyBound);
	 * a claim the dump shows Bound counts as bound too */
	c->bound = c->volume_name >= 0 && (sqlite3_column_int(q, 14) || (phase && !strcmp(phase, "Bound")));
	c->has_selector = sqlite3_column_type(q, 9) != SQLITE_NULL;
	int rc = kp_ld_sel(L, kp_ld_col(q, 9), &c->selector);
	c->selected_node_name = kp_ld_intern(L, sqlite3_column_text(q, 10));
	c->selected_node = -1;
	if (c->selected_node_name >= 0 && c->selected_node_name < L->node_of_sid_len)
		c->selected_node = L->node_of_sid[c->selected_node_name];
	c->deleting = (uint8_t)sqlite3_column_int(q, 11);
	c->owner_kind = kp_ld_intern(L, sqlite3_column_text(q, 12));
	c->owner_name = kp_ld_intern(L, sqlite3_column_text(q, 13));
	c->attr_class = kp_ld_intern(L, sqlite3_column_text(q, 15));
	int64_t *pv = c->volume_name >= 0 ? kp_dmap_get(pv_by_name, c->volume_name) : NULL;
	c->pv = pv ? (int32_t)*pv : -1;
	c->run_pv = c->run_node = -1;
	char *u = kp_arena_printf(&L->tmp, "pvc:%s/%s", kp_ld_col(q, 1), kp_ld_col(q, 2));
	c->unique = u ? kp_strtab_intern(&L->s->strs, u) : -1;
	if (!rc && (c->ns < 0 || c->name < 0 || c->unique < 0))
		rc = kp_ld_nomem(L);
	return rc;
}

static int load_claims(kp_loader *L, kp_storage *st, kp_sid default_class, const kp_dmap *pv_by_name,
		       kp_dmap *claim_by_name)
{
	sqlite3_stmt *q;
	int rc = count_rows(L, "pvc", &st->nclaims);
	if (rc)
		return rc;
	st->claims = kp_ld_alloc(L, (size_t)st->nclaims * sizeof *st->claims);
	if (!st->claims)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_storage_claims, &q))
		return L->err->code;
	int i = 0;
	while (!rc && i < st->nclaims && sqlite3_step(q) == SQLITE_ROW) {
		rc = claim_row(L, st, &st->claims[i], q, default_class, pv_by_name);
		int64_t *slot = rc ? NULL : kp_dmap_put(claim_by_name, kp_pair_key(st->claims[i].ns, st->claims[i].name));
		if (!rc && !slot)
			rc = kp_ld_nomem(L);
		if (!rc)
			*slot = i;
		i++;
	}
	sqlite3_finalize(q);
	st->nclaims = i;
	return rc;
}

/* ---- pods' volumes ---- */

static int vol_row(kp_loader *L, kp_storage *st, kp_podvol *v, const kp_pod *p, sqlite3_stmt *q,
		   const kp_dmap *claim_by_name)
{
	static const char *const kinds[] = { "pvc", "ephemeral", "intree", "csi" };
	memset(v, 0, sizeof *v);
	v->name = kp_ld_intern(L, sqlite3_column_text(q, 1));
	const char *kind = kp_ld_col(q, 2);
	for (int k = 0; k < 4; k++)
		if (kind && !strcmp(kind, kinds[k]))
			v->kind = (uint8_t)k;
	v->claim_name = kp_ld_intern(L, sqlite3_column_text(q, 3));
	v->read_only = (uint8_t)sqlite3_column_int(q, 4);
	v->source = kp_ld_intern(L, sqlite3_column_text(q, 5));
	v->driver = kp_ld_intern(L, sqlite3_column_text(q, 6));
	v->intree = v->kind == KP_VOL_INTREE ? intree_index(it_source, kp_ld_col(q, 5)) : -1;
	v->monitors = kp_ld_intern(L, sqlite3_column_text(q, 8));
	const char *h = kp_ld_col(q, 7);
	v->claim = -1;
	if (v->kind == KP_VOL_INTREE && v->intree >= 0) {
		/* its NodeVolumeLimits name: the translated driver and handle */
		if (v->intree == KP_IT_AWS_EBS && h && !strncmp(h, "aws://", 6) && strrchr(h, '/'))
			h = strrchr(h, '/') + 1;
		char *u = kp_arena_printf(&L->tmp, "%s/%s", it_driver[v->intree], h ? h : "");
		v->handle = u ? kp_strtab_intern(&L->s->strs, u) : -1;
		if (v->handle < 0)
			return kp_ld_nomem(L);
	} else {
		v->handle = kp_ld_intern(L, sqlite3_column_text(q, 7));
	}
	if ((v->kind == KP_VOL_PVC || v->kind == KP_VOL_EPHEMERAL) && v->claim_name >= 0) {
		int64_t *ci = kp_dmap_get(claim_by_name, kp_pair_key(p->ns, v->claim_name));
		v->claim = ci ? (int32_t)*ci : -1;
		if (v->claim >= 0 && v->kind == KP_VOL_EPHEMERAL) {
			const kp_claim *c = &st->claims[v->claim];
			v->not_owned = !(c->owner_kind >= 0 && !strcmp(kp_str(&L->s->strs, c->owner_kind), "Pod") &&
					 c->owner_name == p->name);
		}
	}
	return v->name < 0 ? kp_ld_nomem(L) : KP_OK;
}

static int load_pod_volumes(kp_loader *L, kp_storage *st, const kp_dmap *claim_by_name)
{
	kp_snap *s = L->s;
	sqlite3_stmt *q;
	int nvols, rc = count_rows(L, "pod_volume", &nvols);
	if (rc)
		return rc;
	st->vols = kp_ld_alloc(L, (size_t)nvols * sizeof *st->vols);
	st->vol_off = kp_ld_alloc(L, (size_t)(s->npods + 1) * sizeof *st->vol_off);
	st->pod_kinds = kp_ld_alloc(L, (size_t)s->npods + 1);
	if (!st->vols || !st->vol_off || !st->pod_kinds)
		return kp_ld_nomem(L);
	memset(st->pod_kinds, 0, (size_t)s->npods + 1);
	if (kp_ld_prepare(L, kp_sql_snapshot_storage_pod_volumes, &q))
		return L->err->code;
	int i = 0, next = 0;   /* next: the first pod whose offset is not yet set */
	while (!rc && i < nvols && sqlite3_step(q) == SQLITE_ROW) {
		int pi = kp_snap_pod_index(s, sqlite3_column_int64(q, 0));
		if (pi < 0 || pi < next - 1)
			continue;
		while (next <= pi)
			st->vol_off[next++] = i;
		kp_podvol *v = &st->vols[i++];
		rc = vol_row(L, st, v, &s->pods[pi], q, claim_by_name);
		static const uint8_t bits[] = { 1, 2, 0, 0 };
		st->pod_kinds[pi] |= bits[v->kind];
		const char *src = kp_str(&s->strs, v->source);
		if (v->kind == KP_VOL_INTREE && (!strcmp(src, "gcePersistentDisk") || !strcmp(src, "awsElasticBlockStore") ||
						 !strcmp(src, "rbd") || !strcmp(src, "iscsi")))
			st->pod_kinds[pi] |= 4;
		if (v->kind != KP_VOL_CSI)
			st->pod_kinds[pi] |= 8;
	}
	sqlite3_finalize(q);
	while (next <= s->npods)
		st->vol_off[next++] = i;
	/* the scratch for one pod's volumes (storage.h) */
	for (int p = 0; p < s->npods; p++)
		if (st->vol_off[p + 1] - st->vol_off[p] > st->maxv)
			st->maxv = st->vol_off[p + 1] - st->vol_off[p];
	st->scr = kp_ld_alloc(L, 5 * (size_t)st->maxv * sizeof *st->scr);
	st->keys = kp_ld_alloc(L, (size_t)st->maxv * sizeof *st->keys);
	if (!rc && (!st->scr || !st->keys))
		rc = kp_ld_nomem(L);
	return rc;
}

/* ---- CSINodes ---- */

static int load_csi_nodes(kp_loader *L, kp_storage *st)
{
	kp_snap *s = L->s;
	sqlite3_stmt *q;
	int nrows, rc = kp_ld_count(L, "SELECT count(*) FROM csi_node", &nrows);
	if (rc)
		return rc;
	size_t nn = (size_t)s->nnodes + 1;
	st->csinode = kp_ld_alloc(L, nn);
	st->migrated = kp_ld_alloc(L, nn);
	st->limit_off = kp_ld_alloc(L, nn * sizeof *st->limit_off);
	st->limit_drv = kp_ld_alloc(L, (size_t)nrows * sizeof *st->limit_drv);
	st->limit_cnt = kp_ld_alloc(L, (size_t)nrows * sizeof *st->limit_cnt);
	if (!st->csinode || !st->migrated || !st->limit_off || !st->limit_drv || !st->limit_cnt)
		return kp_ld_nomem(L);
	memset(st->csinode, 0, nn);
	memset(st->migrated, 0, nn);
	int32_t *cnt = kp_calloc(nn, sizeof *cnt);
	if (!cnt)
		return kp_ld_nomem(L);
	/* two passes: per node how many limits, then the limits in place */
	for (int pass = 0; pass < 2 && !rc; pass++) {
		if (kp_ld_prepare(L, kp_sql_snapshot_storage_csi_nodes, &q)) {
			rc = L->err->code;
			break;
		}
		while (!rc && sqlite3_step(q) == SQLITE_ROW) {
			kp_sid name = kp_strtab_find(&s->strs, kp_ld_col(q, 0));
			int n = name >= 0 && name < L->node_of_sid_len ? L->node_of_sid[name] : -1;
			if (n < 0)
				continue;
			if (!pass) {
				st->csinode[n] = 1;
				const char *m = kp_ld_col(q, 1);
				for (int k = 0; k < KP_IT_COUNT && m; k++) {
					const char *p = strstr(m, it_plugin[k]);
					size_t l = strlen(it_plugin[k]);
					if (p && (p == m || p[-1] == ',' || p[-1] == ' ') && (p[l] == 0 || p[l] == ',' || p[l] == ' '))
						st->migrated[n] |= (uint8_t)(1u << k);
				}
				cnt[n] += sqlite3_column_type(q, 3) != SQLITE_NULL;
			} else if (sqlite3_column_type(q, 3) != SQLITE_NULL) {
				int32_t at = st->limit_off[n] + --cnt[n];
				st->limit_drv[at] = kp_ld_intern(L, sqlite3_column_text(q, 2));
				st->limit_cnt[at] = sqlite3_column_int64(q, 3);
			}
		}
		sqlite3_finalize(q);
		if (!pass) {
			int32_t off = 0;
			for (int n = 0; n < s->nnodes; n++) {
				st->limit_off[n] = off;
				off += cnt[n];
			}
			st->limit_off[s->nnodes] = off;
			/* pass 1 fills each node's slots from the end */
			for (int n = 0; n < s->nnodes; n++)
				cnt[n] = st->limit_off[n + 1] - st->limit_off[n];
		}
	}
	kp_free(cnt);
	return rc;
}

int kp_snap_load_storage(kp_loader *L)
{
	kp_snap *s = L->s;
	int present;
	int rc = kp_ld_count(L, kp_sql_snapshot_storage_tables, &present);
	if (!rc && present)
		rc = kp_ld_count(L, kp_sql_snapshot_storage_present, &present);
	if (rc || !present)
		return rc;
	kp_storage *st = kp_ld_alloc(L, sizeof *st);
	if (!st)
		return kp_ld_nomem(L);
	memset(st, 0, sizeof *st);
	static const char *const zone_keys[4] = { "failure-domain.beta.kubernetes.io/zone",
						  "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/zone",
						  "topology.kubernetes.io/region" };
	for (int k = 0; k < 4; k++)
		if ((st->s_zone_keys[k] = kp_strtab_intern(&s->strs, zone_keys[k])) < 0)
			return kp_ld_nomem(L);
	for (int k = 0; k < KP_IT_COUNT; k++)
		if ((st->it_plugin[k] = kp_strtab_intern(&s->strs, it_plugin[k])) < 0 ||
		    (st->it_driver[k] = kp_strtab_intern(&s->strs, it_driver[k])) < 0)
			return kp_ld_nomem(L);
	/* storage tables from before the columns read here: TEMP views */
	int old;
	if ((rc = kp_ld_count(L, kp_sql_snapshot_storage_old, &old)))
		return rc;
	if (old && sqlite3_exec(L->db, kp_sql_snapshot_storage_shim, NULL, NULL, NULL) != SQLITE_OK) {
		rc = kp_ld_db_fail(L, "the storage tables");
		sqlite3_exec(L->db, kp_sql_snapshot_storage_shim_drop, NULL, NULL, NULL);
		return rc;
	}
	kp_dmap pv_by_name, claim_by_name;
	if (kp_dmap_init(&pv_by_name, 64) || kp_dmap_init(&claim_by_name, 64)) {
		kp_dmap_release(&pv_by_name);
		kp_dmap_release(&claim_by_name);
		return kp_ld_nomem(L);
	}
	kp_sid default_class = -1;
	rc = load_classes(L, st, &default_class);
	if (!rc)
		rc = load_pvs(L, st, &pv_by_name);
	if (!rc)
		rc = load_claims(L, st, default_class, &pv_by_name, &claim_by_name);
	if (!rc)
		rc = load_pod_volumes(L, st, &claim_by_name);
	if (!rc)
		rc = load_csi_nodes(L, st);
	/* the nodes with a zone or region label (VolumeZone passes the others) */
	if (!rc && !(st->zoned = kp_ld_alloc(L, (size_t)s->nnodes + 1)))
		rc = kp_ld_nomem(L);
	for (int n = 0; n < s->nnodes && !rc; n++) {
		st->zoned[n] = 0;
		for (int k = 0; k < 4; k++)
			st->zoned[n] |= kp_labels_get(&s->node_labels[n], st->s_zone_keys[k]) >= 0;
	}
	kp_dmap_release(&pv_by_name);
	kp_dmap_release(&claim_by_name);
	if (old)
		sqlite3_exec(L->db, kp_sql_snapshot_storage_shim_drop, NULL, NULL, NULL);
	if (!rc)
		s->st = st;
	return rc;
}
