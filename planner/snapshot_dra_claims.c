/*
 * snapshot_dra_claims.c — the ResourceClaims of the DRA snapshot (dra.h):
 * each claim's requests (exactly, or firstAvailable's subrequests) with
 * their compiled CEL selectors and tolerations, its matchAttribute
 * constraints, its allocation (results and node selector) when it has one,
 * and every pod's claims resolved to claim indexes (dra_load.h).
 */
#include "dra_load.h"

#include <stdio.h>
#include <string.h>

/* the spec's statements, prepared once */
typedef struct cstmts { sqlite3_stmt *req, *sel, *tol, *con, *res, *rcap, *cons; } cstmts;

static void finalize_all(cstmts *c)
{
	sqlite3_finalize(c->req);
	sqlite3_finalize(c->sel);
	sqlite3_finalize(c->tol);
	sqlite3_finalize(c->con);
	sqlite3_finalize(c->res);
	sqlite3_finalize(c->rcap);
	sqlite3_finalize(c->cons);
}

static int class_index(const kp_dra *d, kp_sid name)
{
	for (int i = 0; i < d->nclasses; i++)
		if (d->classes[i].name == name)
			return i;
	return -1;
}

int kp_dra_load_selectors(kp_loader *L, sqlite3_stmt *q, kp_cel ***out, uint32_t *n, int32_t *bad, const char **bad_msg)
{
	kp_cel *tmp[64];
	uint32_t k = 0;
	*bad = -1;
	*bad_msg = NULL;
	while (sqlite3_step(q) == SQLITE_ROW && k < 64) {
		kp_cel *e = NULL;
		kp_cel_pos pos = { 0, 0 };
		char msg[300];
		const char *src = kp_ld_col(q, 0);
		if (kp_cel_compile(src ? src : "", &e, &pos, msg, sizeof msg) != KP_OK) {
			if (*bad < 0) {
				*bad = (int32_t)k;
				*bad_msg = kp_arena_printf(&L->s->arena, "selector #%u: CEL compile error: %s", k, msg);
			}
			e = NULL;   /* import refuses such a selector: only a database written otherwise has one */
		}
		tmp[k++] = e;
	}
	*out = kp_ld_alloc(L, k * sizeof **out);
	if (!*out) {
		for (uint32_t i = 0; i < k; i++)
			kp_cel_free(tmp[i]);
		return kp_ld_nomem(L);
	}
	memcpy(*out, tmp, k * sizeof *tmp);
	*n = k;
	return KP_OK;
}

/* one (sub)request's selectors and tolerations */
static int request_details(kp_loader *L, kp_dra *d, cstmts *c, int64_t spec, const char *req, const char *sub, kp_dreq *r)
{
	sqlite3_reset(c->sel);
	sqlite3_bind_int64(c->sel, 1, spec);
	sqlite3_bind_text(c->sel, 2, req, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(c->sel, 3, sub, -1, SQLITE_TRANSIENT);
	if (kp_dra_load_selectors(L, c->sel, &r->selectors, &r->nselectors, &r->bad_selector, &r->bad_msg))
		return L->err->code;
	kp_dtol t[64];
	uint32_t n = 0;
	sqlite3_reset(c->tol);
	sqlite3_bind_int64(c->tol, 1, spec);
	sqlite3_bind_text(c->tol, 2, req, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(c->tol, 3, sub, -1, SQLITE_TRANSIENT);
	while (sqlite3_step(c->tol) == SQLITE_ROW && n < 64) {
		const char *key = kp_ld_col(c->tol, 0), *op = kp_ld_col(c->tol, 1), *eff = kp_ld_col(c->tol, 3);
		t[n++] = (kp_dtol){ key && key[0] ? kp_ld_intern(L, (const unsigned char *)key) : -1,
				    kp_ld_intern(L, sqlite3_column_text(c->tol, 2)), op && !strcmp(op, "Exists"),
				    !eff || !eff[0] ? KP_EFFECT_ANY : !strcmp(eff, "NoSchedule") ? KP_EFFECT_NOSCHEDULE
				    : !strcmp(eff, "NoExecute") ? KP_EFFECT_NOEXECUTE : 255 };
	}
	r->tols = kp_ld_alloc(L, n * sizeof *r->tols);
	if (!r->tols)
		return kp_ld_nomem(L);
	memcpy(r->tols, t, n * sizeof *t);
	r->ntols = n;
	/* capacity.requests: a name without a domain is the device's driver's */
	sqlite3_reset(c->rcap);
	sqlite3_bind_int64(c->rcap, 1, spec);
	sqlite3_bind_text(c->rcap, 2, req, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(c->rcap, 3, sub, -1, SQLITE_TRANSIENT);
	kp_sid cd[32], cn[32];
	int64_t cv[32];
	n = 0;
	while (sqlite3_step(c->rcap) == SQLITE_ROW && n < 32) {
		const char *nm = kp_ld_col(c->rcap, 0), *slash = nm ? strrchr(nm, '/') : NULL;
		cd[n] = slash ? kp_strtab_intern(&L->s->strs, kp_arena_printf(&L->tmp, "%.*s", (int)(slash - nm), nm)) : -1;
		cn[n] = kp_strtab_intern(&L->s->strs, slash ? slash + 1 : nm ? nm : "");
		cv[n++] = sqlite3_column_int64(c->rcap, 1);
	}
	r->cap_domain = kp_ld_alloc(L, n * sizeof *r->cap_domain);
	r->cap_name = kp_ld_alloc(L, n * sizeof *r->cap_name);
	r->cap_value = kp_ld_alloc(L, n * sizeof *r->cap_value);
	if (!r->cap_domain || !r->cap_name || !r->cap_value)
		return kp_ld_nomem(L);
	memcpy(r->cap_domain, cd, n * sizeof *cd);
	memcpy(r->cap_name, cn, n * sizeof *cn);
	memcpy(r->cap_value, cv, n * sizeof *cv);
	r->ncaps = n;
	(void)d;
	return KP_OK;
}

/* the requests of spec into c */
static int requests(kp_loader *L, kp_dra *d, cstmts *c, int64_t spec, kp_dclaim *cl)
{
	sqlite3_reset(c->req);
	sqlite3_bind_int64(c->req, 1, spec);
	kp_drequest rq[32];
	kp_dreq alts[32][8];
	uint32_t n = 0;
	int rc = KP_OK;
	while (!rc && sqlite3_step(c->req) == SQLITE_ROW) {
		kp_sid name = kp_ld_intern(L, sqlite3_column_text(c->req, 0));
		const char *sub = kp_ld_col(c->req, 1);
		if (sqlite3_column_int(c->req, 2) && (!sub || !sub[0]))
			continue;   /* a firstAvailable request's own row: its subrequests follow */
		if (!n || rq[n - 1].name != name) {
			/* a request's alternatives come together (rows by seq, sub_seq) */
			if (n == 32)
				break;
			rq[n] = (kp_drequest){ name, 0, NULL };
			n++;
		}
		kp_drequest *r = &rq[n - 1];
		if (r->nalts == 8)
			continue;
		kp_dreq *a = &alts[n - 1][r->nalts++];
		memset(a, 0, sizeof *a);
		a->id = d->nreqs++;
		a->name = sub && sub[0] ? kp_strtab_intern(&L->s->strs, kp_arena_printf(&L->tmp, "%s/%s", kp_ld_col(c->req, 0), sub))
					: name;
		a->cls_name = kp_ld_intern(L, sqlite3_column_text(c->req, 3));
		a->cls = class_index(d, a->cls_name);
		const char *mode = kp_ld_col(c->req, 4);
		a->all = mode && !strcmp(mode, "All");
		a->count = sqlite3_column_type(c->req, 5) == SQLITE_NULL ? 1 : sqlite3_column_int64(c->req, 5);
		a->admin = (uint8_t)sqlite3_column_int(c->req, 6);
		rc = request_details(L, d, c, spec, kp_ld_col(c->req, 0), sub ? sub : "", a);
	}
	if (rc)
		return rc;
	cl->requests = kp_ld_alloc(L, n * sizeof *cl->requests);
	if (!cl->requests)
		return kp_ld_nomem(L);
	for (uint32_t i = 0; i < n; i++) {
		cl->requests[i] = rq[i];
		cl->requests[i].alts = kp_ld_alloc(L, rq[i].nalts * sizeof(kp_dreq));
		if (!cl->requests[i].alts)
			return kp_ld_nomem(L);
		memcpy(cl->requests[i].alts, alts[i], rq[i].nalts * sizeof(kp_dreq));
	}
	cl->nrequests = n;
	return KP_OK;
}

/* matchAttribute constraints ("domain/name"; distinctAttribute: not modelled, kept as none) */
static int constraints(kp_loader *L, cstmts *c, int64_t spec, kp_dclaim *cl)
{
	sqlite3_reset(c->con);
	sqlite3_bind_int64(c->con, 1, spec);
	kp_dconstraint t[16];
	uint32_t n = 0;
	while (sqlite3_step(c->con) == SQLITE_ROW && n < 16) {
		const char *reqs = kp_ld_col(c->con, 0), *attr = kp_ld_col(c->con, 1);
		int distinct = !attr;
		if (!attr && !(attr = kp_ld_col(c->con, 2)))
			continue;
		kp_dconstraint *k = &t[n++];
		memset(k, 0, sizeof *k);
		k->distinct = (uint8_t)distinct;
		const char *slash = strrchr(attr, '/');
		k->domain = slash ? kp_strtab_intern(&L->s->strs, kp_arena_printf(&L->tmp, "%.*s", (int)(slash - attr), attr)) : -1;
		k->attr = kp_strtab_intern(&L->s->strs, slash ? slash + 1 : attr);
		if (reqs && kp_ld_strs(L, reqs, &k->reqs, &k->nreqs))
			return L->err->code;
	}
	cl->constraints = kp_ld_alloc(L, n * sizeof *cl->constraints);
	if (!cl->constraints)
		return kp_ld_nomem(L);
	memcpy(cl->constraints, t, n * sizeof *t);
	cl->nconstraints = n;
	return KP_OK;
}

/* what result seq of claim db id consumes of device v's capacities (a share) */
static int64_t *consumed_of(kp_loader *L, cstmts *c, int64_t claim, int64_t seq, const kp_device *v)
{
	int64_t *out = kp_ld_alloc(L, (v->ncaps ? v->ncaps : 1) * sizeof *out);
	if (!out)
		return NULL;
	memset(out, 0, (v->ncaps ? v->ncaps : 1) * sizeof *out);
	sqlite3_reset(c->cons);
	sqlite3_bind_int64(c->cons, 1, claim);
	sqlite3_bind_int64(c->cons, 2, seq);
	while (sqlite3_step(c->cons) == SQLITE_ROW) {
		kp_sid dom = kp_strtab_find(&L->s->strs, kp_ld_col(c->cons, 0)), nm = kp_strtab_find(&L->s->strs, kp_ld_col(c->cons, 1));
		for (uint32_t k = 0; k < v->ncaps; k++)
			if (v->caps[k].domain == dom && v->caps[k].name == nm)
				out[k] = sqlite3_column_int64(c->cons, 2);
	}
	return out;
}

/* an allocated claim's results, as device indexes; dedicated ones make
 * their devices in use, shares add their consumption */
static int results(kp_loader *L, kp_dra *d, cstmts *c, const kp_dmap *pools, const kp_dmap *devs, kp_dclaim *cl)
{
	sqlite3_reset(c->res);
	sqlite3_bind_int64(c->res, 1, cl->db_id);
	kp_dresult t[64];
	uint32_t n = 0;
	while (sqlite3_step(c->res) == SQLITE_ROW && n < 64) {
		kp_sid drv = kp_strtab_find(&L->s->strs, kp_ld_col(c->res, 1));
		kp_sid pool = kp_strtab_find(&L->s->strs, kp_ld_col(c->res, 2));
		kp_sid dev = kp_strtab_find(&L->s->strs, kp_ld_col(c->res, 3));
		int64_t *pi = drv >= 0 && pool >= 0 ? kp_dmap_get(pools, kp_pair_key(drv, pool)) : NULL;
		int64_t *di = pi && dev >= 0 ? kp_dmap_get(devs, kp_pair_key((int32_t)*pi, dev)) : NULL;
		if (!di)
			continue;   /* a device no slice of the newest generation has: nothing to hold */
		kp_dresult *r = &t[n++];
		memset(r, 0, sizeof *r);
		r->device = (int32_t)(*di - 1);
		r->request = kp_ld_intern(L, sqlite3_column_text(c->res, 0));
		r->admin = (uint8_t)sqlite3_column_int(c->res, 4);
		r->share = (uint8_t)sqlite3_column_int(c->res, 6);
		if (r->share && !(r->consumed = consumed_of(L, c, cl->db_id, sqlite3_column_int64(c->res, 5), &d->devices[r->device])))
			return kp_ld_nomem(L);
	}
	cl->results = kp_ld_alloc(L, n * sizeof *cl->results);
	if (!cl->results)
		return kp_ld_nomem(L);
	memcpy(cl->results, t, n * sizeof *t);
	cl->nresults = n;
	for (uint32_t i = 0; i < n; i++) {
		const kp_device *v = &d->devices[t[i].device];
		if (t[i].share) {
			for (uint32_t k = 0; k < v->ncaps; k++) {
				d->consumed[v->cap_off + (int32_t)k] += t[i].consumed[k];
			}
		} else if (!t[i].admin) {
			d->in_use[t[i].device]++;
		}
	}
	return KP_OK;
}

static int claim_row(kp_loader *L, kp_dra *d, cstmts *c, sqlite3_stmt *q, const kp_dmap *pools, const kp_dmap *devs,
		     kp_dmap *specs, kp_dclaim *cl)
{
	memset(cl, 0, sizeof *cl);
	cl->db_id = sqlite3_column_int64(q, 0);
	cl->ns = kp_ld_intern(L, sqlite3_column_text(q, 1));
	cl->name = kp_ld_intern(L, sqlite3_column_text(q, 2));
	cl->generated = (uint8_t)sqlite3_column_int(q, 4);
	cl->owner_kind = kp_ld_intern(L, sqlite3_column_text(q, 5));
	cl->owner_name = kp_ld_intern(L, sqlite3_column_text(q, 6));
	cl->deleting = (uint8_t)sqlite3_column_int(q, 7);
	cl->allocated = (uint8_t)sqlite3_column_int(q, 8);
	cl->node = -1;
	int64_t spec = sqlite3_column_int64(q, 3);
	/* claims made from one template share its spec: read it once */
	int64_t *first = kp_dmap_get(specs, spec);
	int rc = KP_OK;
	if (first) {
		const kp_dclaim *o = &d->claims[*first];
		cl->requests = o->requests;
		cl->nrequests = o->nrequests;
		cl->constraints = o->constraints;
		cl->nconstraints = o->nconstraints;
		cl->spec_shared = 1;
	} else {
		rc = requests(L, d, c, spec, cl);
		if (!rc)
			rc = constraints(L, c, spec, cl);
		int64_t *slot = rc ? NULL : kp_dmap_put(specs, spec);
		if (!rc && !slot)
			rc = kp_ld_nomem(L);
		if (!rc)
			*slot = cl - d->claims;
	}
	if (!rc && cl->allocated) {
		rc = kp_ld_terms(L, kp_ld_col(q, 9), &cl->terms, &cl->nterms, "a claim's allocation nodeSelector");
		if (!rc)
			rc = results(L, d, c, pools, devs, cl);
	}
	return rc;
}

int kp_snap_load_dra_claims(kp_loader *L, kp_dra *d, const kp_dmap *pools, const kp_dmap *devs, kp_dmap *by_key)
{
	sqlite3_stmt *q;
	cstmts c = { 0 };
	int rc = kp_ld_count(L, "SELECT count(*) FROM resource_claim", &d->nclaims);
	if (rc)
		return rc;
	/* one more: the in-memory claim of extended resources (dra.h) */
	d->claims = kp_ld_alloc(L, ((size_t)d->nclaims + 1) * sizeof *d->claims);
	d->in_use = kp_ld_alloc(L, ((size_t)d->ndevices + 1) * sizeof *d->in_use);
	d->consumed = kp_ld_alloc(L, ((size_t)d->ncaps_total + 1) * sizeof *d->consumed);
	if (!d->claims || !d->in_use || !d->consumed)
		return kp_ld_nomem(L);
	memset(d->in_use, 0, ((size_t)d->ndevices + 1) * sizeof *d->in_use);
	memset(d->consumed, 0, ((size_t)d->ncaps_total + 1) * sizeof *d->consumed);
	if (kp_ld_prepare(L, kp_sql_snapshot_dra_claims, &q))
		return L->err->code;
	if (kp_ld_prepare(L, kp_sql_snapshot_dra_requests, &c.req) || kp_ld_prepare(L, kp_sql_snapshot_dra_request_selectors, &c.sel) ||
	    kp_ld_prepare(L, kp_sql_snapshot_dra_request_capacity, &c.rcap) ||
	    kp_ld_prepare(L, kp_sql_snapshot_dra_request_tolerations, &c.tol) ||
	    kp_ld_prepare(L, kp_sql_snapshot_dra_constraints, &c.con) ||
	    kp_ld_prepare(L, kp_sql_snapshot_dra_results, &c.res) ||
	    kp_ld_prepare(L, kp_sql_snapshot_dra_result_consumed, &c.cons)) {
		sqlite3_finalize(q);
		finalize_all(&c);
		return L->err->code;
	}
	kp_dmap specs;
	if (kp_dmap_init(&specs, 64))
		rc = kp_ld_nomem(L);
	int i = 0;
	while (!rc && i < d->nclaims && sqlite3_step(q) == SQLITE_ROW) {
		kp_dclaim *cl = &d->claims[i];
		rc = claim_row(L, d, &c, q, pools, devs, &specs, cl);
		int64_t *slot = rc ? NULL : kp_dmap_put(by_key, kp_pair_key(cl->ns, cl->name));
		if (!rc && !slot)
			rc = kp_ld_nomem(L);
		if (!rc)
			*slot = i;
		i++;
	}
	sqlite3_finalize(q);
	finalize_all(&c);
	kp_dmap_release(&specs);
	d->nclaims = i;
	memset(&d->claims[i], 0, sizeof d->claims[i]);
	d->claims[i].node = -1;
	d->claims[i].owner_kind = d->claims[i].owner_name = -1;
	return rc;
}

int kp_snap_load_dra_pod_claims(kp_loader *L, kp_dra *d, const kp_dmap *by_key)
{
	kp_snap *s = L->s;
	sqlite3_stmt *q;
	int n, rc = kp_ld_count(L, "SELECT count(*) FROM pod_resource_claim", &n);
	if (rc)
		return rc;
	d->claim_off = kp_ld_alloc(L, ((size_t)s->npods + 1) * sizeof *d->claim_off);
	d->claim = kp_ld_alloc(L, (size_t)n * sizeof *d->claim);
	d->claim_name = kp_ld_alloc(L, (size_t)n * sizeof *d->claim_name);
	d->claim_err = kp_ld_alloc(L, (size_t)n + 1);
	if (!d->claim_off || !d->claim || !d->claim_name || !d->claim_err)
		return kp_ld_nomem(L);
	if (kp_ld_prepare(L, kp_sql_snapshot_dra_pod_claims, &q))
		return L->err->code;
	int k = 0, next = 0;
	while (k < n && sqlite3_step(q) == SQLITE_ROW) {
		int pi = kp_snap_pod_index(s, sqlite3_column_int64(q, 0));
		if (pi < 0)
			continue;
		while (next <= pi)
			d->claim_off[next++] = k;
		const char *from = kp_ld_col(q, 3), *claim = kp_ld_col(q, 2);
		if (from && !strcmp(from, "none"))
			continue;   /* the controller decided no claim is needed */
		kp_sid cs = claim ? kp_strtab_find(&s->strs, claim) : -1;
		int64_t *ci = cs >= 0 ? kp_dmap_get(by_key, kp_pair_key(s->pods[pi].ns, cs)) : NULL;
		d->claim[k] = ci ? (int32_t)*ci : -1;
		d->claim_name[k] = claim ? kp_ld_intern(L, (const unsigned char *)claim) : kp_ld_intern(L, sqlite3_column_text(q, 1));
		/* bit 0: a template's claim that was not generated (the template is
		 * missing); bit 1: a template's claim (its owner must be the pod) */
		d->claim_err[k] = (uint8_t)((claim ? 0 : 1) | (sqlite3_column_type(q, 4) != SQLITE_NULL ? 2 : 0));
		k++;
	}
	sqlite3_finalize(q);
	while (next <= s->npods)
		d->claim_off[next++] = k;
	return KP_OK;
}
