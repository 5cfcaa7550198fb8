/*
 * snapshot_dra.c — the DRA part of the snapshot (dra.h): DeviceClasses with
 * their compiled CEL selectors, the pools of the newest generation with
 * their slices and devices (attributes, capacities, counters, taints), the
 * ResourceClaims with their requests, constraints and allocations, and each
 * pod's claims, from schema/dra.sql's tables (queries/snapshot/dra_*.sql).
 * Nothing is loaded, and kp_snap.dra stays NULL, when no pod names a claim
 * and no slice was imported.
 */
#include "snapshot_int.h"
#include "dra.h"
#include "dra_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dload {
	kp_loader *L;
	kp_dra *d;
	kp_dmap pool_by_key;         /* (driver, pool) -> pool index */
	kp_dmap dev_by_key;          /* (pool, device name) -> device index */
	kp_dmap claim_by_key;        /* (ns, name) -> claim index */
	sqlite3_stmt *pool_counters; /* prepared once for every pool (load_pool_counters) */
} dload;

static int nomem(dload *x) { return kp_ld_nomem(x->L); }

/* ---- classes ---- */

static int load_classes(dload *x)
{
	kp_dra *d = x->d;
	sqlite3_stmt *q, *sel;
	int rc = kp_ld_count(x->L, "SELECT count(*) FROM device_class", &d->nclasses);
	if (rc)
		return rc;
	d->classes = kp_ld_alloc(x->L, (size_t)d->nclasses * sizeof *d->classes);
	if (!d->classes)
		return nomem(x);
	if (kp_ld_prepare(x->L, kp_sql_snapshot_dra_classes, &q))
		return x->L->err->code;
	if (kp_ld_prepare(x->L, "SELECT expression FROM device_class_selector WHERE class_id = ?1 ORDER BY seq", &sel)) {
		sqlite3_finalize(q);
		return x->L->err->code;
	}
	int i = 0;
	while (!rc && i < d->nclasses && sqlite3_step(q) == SQLITE_ROW) {
		kp_dclass *c = &d->classes[i++];
		memset(c, 0, sizeof *c);
		c->name = kp_ld_intern(x->L, sqlite3_column_text(q, 1));
		c->openb = sqlite3_column_text(q, 1) && !strcmp((const char *)sqlite3_column_text(q, 1), KP_OPENB_GPU_CLASS);
		sqlite3_reset(sel);
		sqlite3_bind_int64(sel, 1, sqlite3_column_int64(q, 0));
		rc = kp_dra_load_selectors(x->L, sel, &c->selectors, &c->nselectors, &c->bad_selector, &c->bad_msg);
	}
	sqlite3_finalize(q);
	sqlite3_finalize(sel);
	d->nclasses = i;
	return rc;
}

/* ---- devices ---- */

static uint8_t effect_code(const char *e)
{
	return !e ? 0 : !strcmp(e, "NoSchedule") ? KP_EFFECT_NOSCHEDULE : !strcmp(e, "NoExecute") ? KP_EFFECT_NOEXECUTE : 0;
}

/* rows of sql for the device db id: count, then fill via fn */
static int device_rows(dload *x, const char *sql, int64_t id, sqlite3_stmt **cache)
{
	if (!*cache && kp_ld_prepare(x->L, sql, cache))
		return x->L->err->code;
	sqlite3_reset(*cache);
	sqlite3_bind_int64(*cache, 1, id);
	return KP_OK;
}

typedef struct dev_stmts { sqlite3_stmt *attrs, *caps, *counters, *taints; } dev_stmts;

static int device_details(dload *x, kp_device *v, int64_t id, kp_sid driver, dev_stmts *ds)
{
	kp_loader *L = x->L;
	kp_dattr a[256];
	uint32_t n = 0;
	if (device_rows(x, kp_sql_snapshot_dra_device_attrs, id, &ds->attrs))
		return L->err->code;
	while (sqlite3_step(ds->attrs) == SQLITE_ROW && n < 256) {
		kp_dattr *t = &a[n++];
		memset(t, 0, sizeof *t);
		t->domain = kp_ld_intern(L, sqlite3_column_text(ds->attrs, 0));
		t->name = kp_ld_intern(L, sqlite3_column_text(ds->attrs, 1));
		const char *type = kp_ld_col(ds->attrs, 2);
		if (type && !strcmp(type, "int")) {
			t->v.type = KP_CEL_INT;
			t->v.i = sqlite3_column_int64(ds->attrs, 3);
		} else if (type && !strcmp(type, "bool")) {
			t->v.type = KP_CEL_BOOL;
			t->v.b = sqlite3_column_int(ds->attrs, 3) != 0;
		} else {
			t->v.type = type && !strcmp(type, "version") ? KP_CEL_VERSION : KP_CEL_STRING;
			kp_sid sv = kp_ld_intern(L, sqlite3_column_text(ds->attrs, 3));
			t->v.s = kp_str(&L->s->strs, sv);   /* interned: stable (strtab strings do not move) */
		}
	}
	v->attrs = kp_ld_alloc(L, n * sizeof *v->attrs);
	if (!v->attrs)
		return nomem(x);
	memcpy(v->attrs, a, n * sizeof *a);
	v->nattrs = n;
	n = 0;
	if (device_rows(x, kp_sql_snapshot_dra_device_caps, id, &ds->caps))
		return L->err->code;
	int64_t base[256];
	kp_dpolicy pol[256];
	while (sqlite3_step(ds->caps) == SQLITE_ROW && n < 256) {
		kp_dattr *t = &a[n];
		memset(t, 0, sizeof *t);
		t->domain = kp_ld_intern(L, sqlite3_column_text(ds->caps, 0));
		t->name = kp_ld_intern(L, sqlite3_column_text(ds->caps, 1));
		base[n] = sqlite3_column_int64(ds->caps, 2);
		t->v.type = base[n] <= INT64_MAX / 1000 && base[n] >= INT64_MIN / 1000 ? KP_CEL_QUANTITY : KP_CEL_NONE;
		t->v.i = t->v.type == KP_CEL_QUANTITY ? base[n] * 1000 : 0;   /* cel.h: quantities in milli-units */
		kp_dpolicy *p = &pol[n];
		memset(p, 0, sizeof *p);
		for (int k = 0; k < 4; k++) {
			int64_t w = sqlite3_column_type(ds->caps, 3 + k) == SQLITE_NULL ? -1 : sqlite3_column_int64(ds->caps, 3 + k);
			*(k == 0 ? &p->def : k == 1 ? &p->min : k == 2 ? &p->max : &p->step) = w;
		}
		const char *vv = kp_ld_col(ds->caps, 7);
		kp_json *j = vv ? kp_json_parse(vv, &L->tmp) : NULL;
		if (j && j->type == KP_J_ARR && j->n) {
			p->valid = kp_ld_alloc(L, j->n * sizeof *p->valid);
			if (!p->valid)
				return nomem(x);
			for (size_t k = 0; k < j->n; k++)
				p->valid[p->nvalid++] = j->items[k]->str ? strtoll(j->items[k]->str, NULL, 10) : 0;
		}
		n++;
	}
	v->caps = kp_ld_alloc(L, n * sizeof *v->caps);
	v->cap_base = kp_ld_alloc(L, n * sizeof *v->cap_base);
	v->policy = kp_ld_alloc(L, n * sizeof *v->policy);
	if (!v->caps || !v->cap_base || !v->policy)
		return nomem(x);
	memcpy(v->caps, a, n * sizeof *a);
	memcpy(v->cap_base, base, n * sizeof *base);
	memcpy(v->policy, pol, n * sizeof *pol);
	v->ncaps = n;
	v->cap_off = x->d->ncaps_total;
	x->d->ncaps_total += (int32_t)n;
	kp_dcounter c[128];
	n = 0;
	if (device_rows(x, kp_sql_snapshot_dra_device_counters, id, &ds->counters))
		return L->err->code;
	while (sqlite3_step(ds->counters) == SQLITE_ROW && n < 128)
		c[n++] = (kp_dcounter){ kp_ld_intern(L, sqlite3_column_text(ds->counters, 0)),
					kp_ld_intern(L, sqlite3_column_text(ds->counters, 1)), sqlite3_column_int64(ds->counters, 2) };
	v->consumes = kp_ld_alloc(L, n * sizeof *v->consumes);
	if (!v->consumes)
		return nomem(x);
	memcpy(v->consumes, c, n * sizeof *c);
	v->nconsumes = n;
	kp_dtaint t[64];
	n = 0;
	if (device_rows(x, kp_sql_snapshot_dra_device_taints, id, &ds->taints))
		return L->err->code;
	while (sqlite3_step(ds->taints) == SQLITE_ROW && n < 64)
		t[n++] = (kp_dtaint){ kp_ld_intern(L, sqlite3_column_text(ds->taints, 0)),
				      kp_ld_intern(L, sqlite3_column_text(ds->taints, 1)), effect_code(kp_ld_col(ds->taints, 2)) };
	v->taints = kp_ld_alloc(L, n * sizeof *v->taints);
	if (!v->taints)
		return nomem(x);
	memcpy(v->taints, t, n * sizeof *t);
	v->ntaints = n;
	(void)driver;
	return KP_OK;
}

static int node_of(kp_loader *L, const char *name)
{
	kp_sid sid = name ? kp_strtab_find(&L->s->strs, name) : -1;
	return sid >= 0 && sid < L->node_of_sid_len ? L->node_of_sid[sid] : -1;
}

/* the devices of slice si (db id sid) */
static int slice_devices(dload *x, kp_dslice *sl, int64_t sid, kp_sid driver, dev_stmts *ds, sqlite3_stmt *q, int *cap)
{
	kp_dra *d = x->d;
	kp_loader *L = x->L;
	sqlite3_reset(q);
	sqlite3_bind_int64(q, 1, sid);
	sl->first_device = d->ndevices;
	int rc = KP_OK;
	while (!rc && sqlite3_step(q) == SQLITE_ROW) {
		if (d->ndevices >= *cap)
			break;   /* more rows than counted: the table changed under the load (cannot: one transaction) */
		kp_device *v = &d->devices[d->ndevices];
		memset(v, 0, sizeof *v);
		v->name = kp_ld_intern(L, sqlite3_column_text(q, 1));
		v->pool = sl->pool;
		v->slice = (int32_t)(sl - d->slices);
		v->allow_multiple = (uint8_t)sqlite3_column_int(q, 2);
		v->binds_to_node = (uint8_t)sqlite3_column_int(q, 3);
		v->node = node_of(L, kp_ld_col(q, 4));
		if (v->node < 0 && kp_ld_col(q, 4))
			v->node = -2;   /* a node that was not imported: no node */
		v->all_nodes = (uint8_t)sqlite3_column_int(q, 6);
		rc = kp_ld_terms(L, kp_ld_col(q, 5), &v->terms, &v->nterms, "a device's nodeSelector");
		if (!rc)
			rc = device_details(x, v, sqlite3_column_int64(q, 0), driver, ds);
		int64_t *slot = rc ? NULL : kp_dmap_put(&x->dev_by_key, kp_pair_key(v->pool, v->name));
		if (!rc && !slot)
			rc = nomem(x);
		if (!rc && *slot)
			d->pools[v->pool].invalid = 1;   /* a device name twice in the pool */
		if (!rc)
			*slot = d->ndevices + 1;
		d->ndevices++;
	}
	sl->ndevices = d->ndevices - sl->first_device;
	return rc;
}

static int load_pool_counters(dload *x, kp_dpool *p)
{
	sqlite3_stmt *q = x->pool_counters;
	if (!q && kp_ld_prepare(x->L, kp_sql_snapshot_dra_pool_counters, &x->pool_counters))
		return x->L->err->code;
	q = x->pool_counters;
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, kp_str(&x->L->s->strs, p->driver), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, kp_str(&x->L->s->strs, p->name), -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 3, p->generation);
	kp_dcounter c[256];
	uint32_t n = 0;
	while (sqlite3_step(q) == SQLITE_ROW && n < 256)
		c[n++] = (kp_dcounter){ kp_ld_intern(x->L, sqlite3_column_text(q, 0)),
					kp_ld_intern(x->L, sqlite3_column_text(q, 1)), sqlite3_column_int64(q, 2) };
	sqlite3_reset(q);   /* the bound texts are the string table's (SQLITE_STATIC): let go of them now */
	p->counters = kp_ld_alloc(x->L, n * sizeof *p->counters);
	if (!p->counters)
		return nomem(x);
	memcpy(p->counters, c, n * sizeof *c);
	p->ncounters = n;
	return KP_OK;
}

static int load_slices(dload *x)
{
	kp_dra *d = x->d;
	kp_loader *L = x->L;
	sqlite3_stmt *q, *dq;
	int rc = kp_ld_count(L, "SELECT count(*) FROM resource_slice", &d->nslices);
	if (rc)
		return rc;
	d->slices = kp_ld_alloc(L, (size_t)d->nslices * sizeof *d->slices);
	d->pools = kp_ld_alloc(L, (size_t)d->nslices * sizeof *d->pools);   /* at most one pool per slice */
	if (!d->slices || !d->pools)
		return nomem(x);
	if (kp_ld_prepare(L, kp_sql_snapshot_dra_slices, &q))
		return L->err->code;
	if (kp_ld_prepare(L, kp_sql_snapshot_dra_devices, &dq)) {
		sqlite3_finalize(q);
		return L->err->code;
	}
	dev_stmts ds = { 0 };
	int ns = 0, cap = 0;
	if ((rc = kp_ld_count(L, "SELECT count(*) FROM slice_device", &cap)) ||
	    !(d->devices = kp_ld_alloc(L, (size_t)cap * sizeof *d->devices))) {
		sqlite3_finalize(q);
		sqlite3_finalize(dq);
		return rc ? rc : nomem(x);
	}
	while (!rc && ns < d->nslices && sqlite3_step(q) == SQLITE_ROW) {
		kp_sid driver = kp_ld_intern(L, sqlite3_column_text(q, 2)), pname = kp_ld_intern(L, sqlite3_column_text(q, 3));
		int64_t *pi = kp_dmap_get(&x->pool_by_key, kp_pair_key(driver, pname));
		if (!pi) {
			kp_dpool *p = &d->pools[d->npools];
			memset(p, 0, sizeof *p);
			p->driver = driver;
			p->name = pname;
			p->generation = sqlite3_column_int64(q, 4);
			p->incomplete = sqlite3_column_int64(q, 10) < sqlite3_column_int64(q, 5);
			p->first_slice = ns;
			if (!(pi = kp_dmap_put(&x->pool_by_key, kp_pair_key(driver, pname))))
				rc = nomem(x);
			else
				*pi = d->npools++;
			if (!rc)
				rc = load_pool_counters(x, p);
		}
		if (rc)
			break;
		kp_dslice *sl = &d->slices[ns++];
		memset(sl, 0, sizeof *sl);
		sl->name = kp_ld_intern(L, sqlite3_column_text(q, 1));
		sl->pool = (int32_t)*pi;
		sl->node = node_of(L, kp_ld_col(q, 6));
		if (sl->node < 0 && kp_ld_col(q, 6))
			sl->node = -2;
		sl->all_nodes = (uint8_t)sqlite3_column_int(q, 8);
		sl->per_device = (uint8_t)sqlite3_column_int(q, 9);
		sl->has_selector = sqlite3_column_type(q, 7) != SQLITE_NULL;
		d->pools[sl->pool].nslices++;
		rc = kp_ld_terms(L, kp_ld_col(q, 7), &sl->terms, &sl->nterms, "a ResourceSlice's nodeSelector");
		if (!rc)
			rc = slice_devices(x, sl, sqlite3_column_int64(q, 0), driver, &ds, dq, &cap);
	}
	sqlite3_finalize(q);
	sqlite3_finalize(dq);
	sqlite3_finalize(ds.attrs);
	sqlite3_finalize(ds.caps);
	sqlite3_finalize(ds.counters);
	sqlite3_finalize(ds.taints);
	sqlite3_finalize(x->pool_counters);
	x->pool_counters = NULL;
	d->nslices = ns;
	/* a device consuming a counter its pool does not define makes the pool invalid */
	for (int i = 0; i < d->ndevices && !rc; i++) {
		const kp_device *v = &d->devices[i];
		kp_dpool *p = &d->pools[v->pool];
		for (uint32_t k = 0; k < v->nconsumes; k++) {
			int found = 0;
			for (uint32_t j = 0; j < p->ncounters && !found; j++)
				found = p->counters[j].set == v->consumes[k].set && p->counters[j].name == v->consumes[k].name;
			if (!found)
				p->invalid = 1;
		}
	}
	return rc;
}

/* DRA-backed extended resources (§16.8): which DeviceClass maps each
 * resource (the first by name when several do: kube takes the newest, kplan
 * has no creation times), and each scheduling class's requests of them as
 * DRA requests */
static int load_extended(dload *x)
{
	kp_loader *L = x->L;
	kp_snap *s = L->s;
	kp_dra *d = x->d;
	sqlite3_stmt *q;
	d->res_cls = kp_ld_alloc(L, ((size_t)s->nres + 1) * sizeof *d->res_cls);
	d->ext_off = kp_ld_alloc(L, ((size_t)s->nclasses + 1) * sizeof *d->ext_off);
	if (!d->res_cls || !d->ext_off)
		return nomem(x);
	for (int r = 0; r <= s->nres; r++)
		d->res_cls[r] = -1;
	if (kp_ld_prepare(L, "SELECT name, extended_resource_name FROM device_class ORDER BY name", &q))
		return L->err->code;
	for (int i = 0; i < d->nclasses && sqlite3_step(q) == SQLITE_ROW; i++) {
		const char *ext = kp_ld_col(q, 1);
		char *implicit = kp_arena_printf(&L->tmp, "deviceclass.resource.kubernetes.io/%s", kp_ld_col(q, 0));
		for (int r = 3; r < s->nres; r++) {
			const char *name = kp_str(&s->strs, s->res_name[r]);
			if (d->res_cls[r] < 0 && ((ext && !strcmp(ext, name)) || (implicit && !strcmp(implicit, name))))
				d->res_cls[r] = i;
		}
	}
	sqlite3_finalize(q);
	int total = 0;
	for (int c = 0; c < s->nclasses; c++)
		for (uint32_t k = 0; k < s->classes[c].nreq; k++)
			total += d->res_cls[s->classes[c].req_res[k]] >= 0 && s->classes[c].req_val[k] > 0;
	d->ext = kp_ld_alloc(L, (size_t)total * sizeof *d->ext);
	d->ext_res = kp_ld_alloc(L, (size_t)total * sizeof *d->ext_res);
	if (!d->ext || !d->ext_res)
		return nomem(x);
	int e = 0;
	for (int c = 0; c < s->nclasses; c++) {
		d->ext_off[c] = e;
		for (uint32_t k = 0; k < s->classes[c].nreq; k++) {
			int r = s->classes[c].req_res[k];
			if (d->res_cls[r] < 0 || s->classes[c].req_val[k] <= 0)
				continue;
			kp_dreq *q2 = &d->ext[e];
			memset(q2, 0, sizeof *q2);
			q2->id = d->nreqs++;
			q2->name = kp_strtab_intern(&s->strs, kp_arena_printf(&L->tmp, "container-0-request-%d", e - d->ext_off[c]));
			q2->cls = d->res_cls[r];
			q2->cls_name = d->classes[q2->cls].name;
			q2->count = s->classes[c].req_val[k];
			q2->bad_selector = -1;
			d->ext_res[e++] = r;
			if (q2->name < 0)
				return nomem(x);
		}
	}
	d->ext_off[s->nclasses] = e;
	return KP_OK;
}

int kp_snap_load_dra(kp_loader *L)
{
	kp_snap *s = L->s;
	int present;
	int rc = kp_ld_count(L, kp_sql_snapshot_dra_tables, &present);
	if (!rc && present)
		rc = kp_ld_count(L, kp_sql_snapshot_dra_present, &present);
	if (rc || !present)
		return rc;
	kp_dra *d = kp_ld_alloc(L, sizeof *d);
	if (!d)
		return kp_ld_nomem(L);
	memset(d, 0, sizeof *d);
	for (int i = 0; i < KP_DRA_NMSGS; i++)
		d->reason_idx[i] = -1;
	dload x = { L, d, { 0 }, { 0 }, { 0 }, NULL };
	if (kp_dmap_init(&x.pool_by_key, 64) || kp_dmap_init(&x.dev_by_key, 256) || kp_dmap_init(&x.claim_by_key, 256))
		rc = kp_ld_nomem(L);
	if (!rc)
		rc = load_classes(&x);
	if (!rc)
		rc = load_slices(&x);
	if (!rc)
		rc = kp_snap_load_dra_claims(L, d, &x.pool_by_key, &x.dev_by_key, &x.claim_by_key);
	if (!rc)
		rc = kp_snap_load_dra_pod_claims(L, d, &x.claim_by_key);
	if (!rc)
		rc = load_extended(&x);
	kp_dmap_release(&x.pool_by_key);
	kp_dmap_release(&x.dev_by_key);
	kp_dmap_release(&x.claim_by_key);
	if (!rc) {
		s->dra = d;
	}
	/* pods a what-if scenario took off their nodes leave their own claims */
	for (int i = 0; i < s->npods && !rc; i++)
		if (s->pods[i].moved_from && kp_dra_release_owned(s, i))
			rc = kp_ld_nomem(L);
	return rc;
}

/* what the run made on top of the loaded DRA state (dra.c, dra_memo.c,
 * gpu_frag.c): caches, the run's allocations, compiled selectors */
void kp_snap_dra_release(kp_snap *s)
{
	kp_dra *d = s->dra;
	if (!d)
		return;
	if (d->cache) {
		kp_dmap_release(d->cache);
		kp_free(d->cache);
	}
	kp_free(d->sel);
	d->sel = NULL;
	kp_free(d->counter_off);
	kp_free(d->pool_used);
	kp_free(d->run);
	kp_free(d->ext_run);
	for (int n = 0; d->node_cand && n < s->nnodes; n++)
		kp_free(d->node_cand[n]);
	kp_free(d->node_cand);
	kp_free(d->node_ncand);
	kp_free(d->node_invalid);
	kp_free(d->memo);        /* dra_memo.c's */
	kp_free(d->node_gen);
	if (d->memo_ids) {
		kp_dmap_release(d->memo_ids);
		kp_free(d->memo_ids);
	}
	d->memo_ids = NULL;
	d->memo_key_id = 0;
	d->memo_hot = NULL;
	d->memo_hot_pi = 0;
	d->memo = NULL;
	d->node_gen = NULL;
	if (d->gpus && d->gpus_free)
		d->gpus_free(d->gpus);
	kp_free(d->fgd_dev);
	d->gpus = NULL;
	d->fgd_dev = NULL;
	d->node_cand = NULL;
	d->node_ncand = NULL;
	d->node_invalid = NULL;
	for (int i = 0; i < d->nclasses; i++)
		for (uint32_t k = 0; k < d->classes[i].nselectors; k++)
			kp_cel_free(d->classes[i].selectors[k]);
	for (int i = 0; i < d->nclaims; i++)
		for (uint32_t r = 0; !d->claims[i].spec_shared && r < d->claims[i].nrequests; r++)
			for (uint32_t a = 0; a < d->claims[i].requests[r].nalts; a++)
				for (uint32_t k = 0; k < d->claims[i].requests[r].alts[a].nselectors; k++)
					kp_cel_free(d->claims[i].requests[r].alts[a].selectors[k]);
	d->cache = NULL;
	d->counter_off = NULL;
	d->pool_used = NULL;
	d->run = NULL;
	d->ext_run = NULL;
}

