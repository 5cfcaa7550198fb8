/*
 * dra.c — the DynamicResources plugin's rules (dra.h; kube-scheduler-semantics.md
 * §16.3–16.6): the pod's claims (PreFilter), the structured allocator for one
 * node (Filter: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/
 * structured, allocator.go and its incubating variant), and Reserve for a batch
 * run (the allocation is recorded at once; PreBind's API writes are the run's
 * rows).
 *
 * The search is kube's: depth first, claims to allocate in the pod's order,
 * requests in spec order (a firstAvailable request tries its subrequests in
 * order, anew for every partial solution of the earlier ones), each device
 * slot taking the first candidate that passes every check, backtracking on
 * failure; candidates in pool order (driver, pool name — kube's is a Go
 * map's: kplan's documented choice), slice order (name), spec order.  A
 * candidate: visible on the node, of a complete and valid pool, not in use
 * (unless admin access) nor already in the solution, selected by the
 * class's and the request's CEL selectors, its NoSchedule/NoExecute taints
 * tolerated, its counters available in the pool, every matchAttribute
 * constraint kept.
 */
#include "dra_int.h"

#include <stdio.h>
#include <string.h>

/* ---- the device as CEL sees it ---- */

typedef struct celctx { const kp_snap *s; const kp_device *v; } celctx;

static int lookup(void *ctx, int map, const char *domain, const char *name, kp_cel_val *out)
{
	const celctx *c = ctx;
	const kp_device *v = c->v;
	const kp_dattr *a = map ? v->caps : v->attrs;
	uint32_t n = map ? v->ncaps : v->nattrs;
	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(kp_str(&c->s->strs, a[i].domain), domain))
			continue;
		if (!name)
			return 1;
		if (!strcmp(kp_str(&c->s->strs, a[i].name), name)) {
			*out = a[i].v;
			return 1;
		}
	}
	return 0;
}

/* what a selector error names: "class NAME" (ns -1) or "claim NS/NAME",
 * formatted only for an error */
typedef struct owner { kp_sid ns, name; } owner;

static void owner_text(const kp_snap *s, owner o, char *out, size_t size)
{
	if (o.ns < 0)
		snprintf(out, size, "class %s", kp_str(&s->strs, o.name));
	else
		snprintf(out, size, "claim %s/%s", kp_str(&s->strs, o.ns), kp_str(&s->strs, o.name));
}

/* every selector of e[0..n) true for device v: 1, 0 no, -1 error (msg) */
static int eval_all(const kp_snap *s, kp_cel *const *e, uint32_t n, const char *bad_msg, const kp_device *v,
		    owner who, char *msg, size_t size)
{
	const kp_dra *d = s->dra;
	celctx c = { s, v };
	kp_cel_device dev = { kp_str(&s->strs, d->pools[v->pool].driver), v->allow_multiple, lookup, &c };
	for (uint32_t i = 0; i < n; i++) {
		char m[256], what[600];
		if (!e[i]) {
			owner_text(s, who, what, sizeof what);
			snprintf(msg, size, "%s: %s", what, bad_msg ? bad_msg : "selector: CEL compile error");
			return -1;
		}
		int r = kp_cel_eval(e[i], &dev, m, sizeof m);
		if (r < 0) {
			owner_text(s, who, what, sizeof what);
			snprintf(msg, size, "%s: selector #%u: CEL runtime error: %s", what, i, m);
			return -1;
		}
		if (!r)
			return 0;
	}
	return 1;
}

/* ---- the allocator's state for one pod and node ---- */

static int in_solution(const search *x, int32_t dev)
{
	for (int i = 0; i < x->nsol; i++)
		if (x->sol[i].device == dev)
			return 1;
	return 0;
}

static int tolerated(const kp_dreq *r, const kp_dtaint *t)
{
	if (t->effect != KP_EFFECT_NOSCHEDULE && t->effect != KP_EFFECT_NOEXECUTE)
		return 1;   /* None (and unknown effects) block nothing */
	for (uint32_t i = 0; i < r->ntols; i++) {
		const kp_dtol *o = &r->tols[i];
		if (o->effect != KP_EFFECT_ANY && o->effect != t->effect)
			continue;
		if (o->key >= 0 && o->key != t->key)
			continue;
		if (o->key < 0 && !o->exists)
			continue;
		if (o->exists || o->value == t->value)
			return 1;
	}
	return 0;
}

/* the pool's counters let the device in, with the solution's devices */
static int counters_fit(const search *x, const kp_device *v)
{
	const kp_dra *d = x->d;
	const kp_dpool *p = &d->pools[v->pool];
	for (uint32_t k = 0; k < v->nconsumes; k++) {
		const kp_dcounter *c = &v->consumes[k];
		for (uint32_t j = 0; j < p->ncounters; j++) {
			if (p->counters[j].set != c->set || p->counters[j].name != c->name)
				continue;
			int64_t used = d->pool_used ? d->pool_used[d->counter_off[v->pool] + (int32_t)j] : 0;
			for (int i = 0; i < x->nsol; i++) {
				const kp_device *u = &d->devices[x->sol[i].device];
				if (u->pool != v->pool || x->sol[i].admin)
					continue;
				for (uint32_t m = 0; m < u->nconsumes; m++)
					if (u->consumes[m].set == c->set && u->consumes[m].name == c->name)
						used += u->consumes[m].value;
			}
			if (used + c->value > p->counters[j].value)
				return 0;
		}
	}
	return 1;
}

static const kp_dattr *attr_of(const kp_device *v, kp_sid domain, kp_sid name)
{
	for (uint32_t i = 0; i < v->nattrs; i++)
		if (v->attrs[i].name == name && (domain < 0 || v->attrs[i].domain == domain))
			return &v->attrs[i];
	return NULL;
}

static int constraint_applies(const kp_dconstraint *k, const kp_snap *s, kp_sid request)
{
	if (!k->nreqs)
		return 1;
	const char *rq = kp_str(&s->strs, request);
	for (uint32_t i = 0; i < k->nreqs; i++) {
		const char *want = kp_str(&s->strs, k->reqs[i]);
		size_t l = strlen(want);
		if (!strncmp(rq, want, l) && (rq[l] == 0 || rq[l] == '/'))
			return 1;   /* the request, or a subrequest of it */
	}
	return 0;
}

static int same_value(const kp_cel_val *a, const kp_cel_val *b)
{
	if (a->type != b->type)
		return 0;
	if (a->type == KP_CEL_INT || a->type == KP_CEL_QUANTITY)
		return a->i == b->i;
	if (a->type == KP_CEL_BOOL)
		return a->b == b->b;
	return a->s && b->s && !strcmp(a->s, b->s);
}

/* matchAttribute: the device has the attribute with the value the claim's
 * earlier devices under the constraint fixed */
static int constraints_ok(const search *x, int32_t claim, kp_sid request, const kp_device *v)
{
	const kp_dclaim *c = &x->d->claims[claim];
	for (uint32_t k = 0; k < c->nconstraints; k++) {
		const kp_dconstraint *ct = &c->constraints[k];
		if (!constraint_applies(ct, x->s, request))
			continue;
		const kp_dattr *a = attr_of(v, ct->domain, ct->attr);
		if (!a)
			return 0;
		for (int i = 0; i < x->nsol; i++) {
			if (x->sol[i].claim != claim || !constraint_applies(ct, x->s, x->sol[i].request))
				continue;
			const kp_dattr *b = attr_of(&x->d->devices[x->sol[i].device], ct->domain, ct->attr);
			if (ct->distinct) {
				if (b && same_value(&a->v, &b->v))
					return 0;   /* distinctAttribute: every value differs */
				continue;
			}
			if (!b || !same_value(&a->v, &b->v))
				return 0;
			break;   /* the first fixed the value */
		}
	}
	return 1;
}

/* consumable capacity (§16.4.8): what one share of multi-allocatable
 * device v for request r consumes of each of its capacities, rounded by the
 * capacity's requestPolicy, into out; 1 it fits what the device has left,
 * 0 not (a policy violated, a capacity the device lacks, too little left) */
static int share_need(const search *x, const kp_dreq *r, const kp_device *v, int64_t *out)
{
	const kp_dra *d = x->d;
	kp_sid driver = d->pools[v->pool].driver;
	for (uint32_t q = 0; q < r->ncaps; q++) {
		int found = 0;
		for (uint32_t k = 0; k < v->ncaps && !found; k++)
			found = v->caps[k].name == r->cap_name[q] &&
				v->caps[k].domain == (r->cap_domain[q] >= 0 ? r->cap_domain[q] : driver);
		if (!found)
			return 0;   /* the request names a capacity the device does not have */
	}
	for (uint32_t k = 0; k < v->ncaps; k++) {
		const kp_dpolicy *p = &v->policy[k];
		int64_t want = -1;
		for (uint32_t q = 0; q < r->ncaps && want < 0; q++)
			if (v->caps[k].name == r->cap_name[q] && v->caps[k].domain == (r->cap_domain[q] >= 0 ? r->cap_domain[q] : driver))
				want = r->cap_value[q];
		if (want < 0)
			want = p->def >= 0 ? p->def : v->cap_base[k];
		if (p->min >= 0) {
			if (want < p->min)
				want = p->min;
			if (p->step > 0)
				want = p->min + (want - p->min + p->step - 1) / p->step * p->step;
			if (p->max >= 0 && want > p->max)
				return 0;
		} else if (p->nvalid) {
			int64_t pick = -1;
			for (uint32_t i = 0; i < p->nvalid && pick < 0; i++)
				if (p->valid[i] >= want)
					pick = p->valid[i];
			if (pick < 0)
				return 0;
			want = pick;
		}
		if (d->consumed[v->cap_off + (int32_t)k] + want > v->cap_base[k])
			return 0;
		out[k] = want;
	}
	return 1;
}

int kp_dra_share_fits(const search *x, const kp_dreq *r, int32_t dev)
{
	int64_t need[256];
	const kp_device *v = &x->d->devices[dev];
	return v->allow_multiple && v->ncaps <= 256 && share_need(x, r, v, need);
}

/* the device passes the request's class and own selectors: 1, 0, -1 error (x->err) */
int kp_dra_selected(search *x, int32_t ci, const kp_dreq *r, int32_t dev)
{
	kp_dmap *cache = x->d->cache;
	/* the dense cache: 0 not yet, else the verdict + 1 (3: an error, not kept) */
	uint8_t *dense = x->d->sel && r->id >= 0 && r->id < x->d->nreqs ? &x->d->sel[(size_t)r->id * (size_t)x->d->ndevices + (size_t)dev] : NULL;
	if (dense && *dense && *dense != 3)
		return *dense - 1;
	int64_t key = kp_pair_key(r->id, dev);
	int64_t *hit = !dense && cache ? kp_dmap_get(cache, key) : NULL;
	if (hit && *hit != 2)
		return (int)*hit;
	const kp_device *v = &x->d->devices[dev];
	const kp_dclass *cls = &x->d->classes[r->cls];
	int ok = eval_all(x->s, cls->selectors, cls->nselectors, cls->bad_msg, v, (owner){ -1, cls->name }, x->err,
			  x->err_size);
	if (ok == 1) {
		const kp_dclaim *c = &x->d->claims[ci];
		ok = eval_all(x->s, r->selectors, r->nselectors, r->bad_msg, v, (owner){ c->ns, c->name }, x->err, x->err_size);
	}
	if (dense) {
		*dense = (uint8_t)(ok < 0 ? 3 : ok + 1);
		return ok;
	}
	int64_t *slot = cache ? kp_dmap_put(cache, key) : NULL;
	if (slot)
		*slot = ok < 0 ? 2 : ok;
	return ok;
}

int kp_dra_request_selects(kp_snap *s, int32_t ci, const kp_dreq *r, int32_t dev)
{
	char err[256];
	search x;
	memset(&x, 0, sizeof x);
	x.s = s;
	x.d = s->dra;
	x.node = -1;
	x.err = err;
	x.err_size = sizeof err;
	err[0] = 0;
	return r->cls >= 0 && kp_dra_selected(&x, ci, r, dev) == 1;
}

/* can device dev take a slot of request r of claim ci now? 1 yes, 0 no, -1 error */
static int fits(search *x, int32_t ci, const kp_dreq *r, int32_t dev)
{
	const kp_device *v = &x->d->devices[dev];
	if (in_solution(x, dev) || (!r->admin && x->d->in_use[dev] > 0))
		return 0;
	int sel = kp_dra_selected(x, ci, r, dev);
	if (sel <= 0)
		return sel;
	for (uint32_t t = 0; t < v->ntaints; t++)
		if (!tolerated(r, &v->taints[t]))
			return 0;
	if (!r->admin && !counters_fit(x, v))
		return 0;
	if (v->allow_multiple) {
		int64_t need[256];
		if (v->ncaps > 256 || !share_need(x, r, v, need))
			return 0;
	}
	return constraints_ok(x, ci, r->name, v);
}

static int push(search *x, int32_t dev, int32_t ci, const kp_dreq *r)
{
	if (KP_GROW(x->sol, x->nsol, x->cap, 16))
		return KP_NOMEM;
	x->sol[x->nsol++] = (pick){ dev, ci, r->name, r->admin };
	return KP_OK;
}

static int alloc_request(search *x, int ci_pos, uint32_t ri);

/* k more devices for alternative r of request ri of the claim at ci_pos,
 * from candidate index from on; then the rest.  1 found, 0 not, < 0 error */
static int alloc_devices(search *x, int ci_pos, uint32_t ri, const kp_dreq *r, int64_t k, int from)
{
	if (k == 0)
		return alloc_request(x, ci_pos, ri + 1);
	int32_t ci = x->claims[ci_pos];
	for (int i = from; i < x->ncand; i++) {
		int f = fits(x, ci, r, x->cand[i]);
		if (f < 0)
			return -1;
		if (!f)
			continue;
		if (push(x, x->cand[i], ci, r))
			return KP_NOMEM;
		int rc = alloc_devices(x, ci_pos, ri, r, k - 1, i + 1);
		if (rc)
			return rc;
		x->nsol--;
	}
	return 0;
}

/* Best fit (issue 18; docs/gpu-devices.md), for requests of a class marked
 * best_fit: the devices that fit are tried by how much of the request's
 * first capacity they have left, least first, then in kube's order — the
 * openb trace scheduler's rule (a share goes to the fullest GPU it fits).
 * Dedicated devices have nothing left to compare (0): kube's order.  The
 * devices' state does not change during one search, so combinations are
 * enumerated in that order: each pick comes after the one before it. */
static int64_t left_of(const search *x, const kp_dreq *r, int32_t dev)
{
	const kp_device *v = &x->d->devices[dev];
	if (!v->allow_multiple || !r->ncaps)
		return 0;
	kp_sid driver = x->d->pools[v->pool].driver;
	for (uint32_t k = 0; k < v->ncaps; k++)
		if (v->caps[k].name == r->cap_name[0] && v->caps[k].domain == (r->cap_domain[0] >= 0 ? r->cap_domain[0] : driver))
			return v->cap_base[k] - x->d->consumed[v->cap_off + (int32_t)k];
	return 0;
}

typedef struct bf { int64_t left; int32_t i; } bf;

static int best_fit(const kp_dra *d, const kp_dreq *r)
{
	return r->ncaps && r->cls >= 0 &&
	       (d->choice == KP_DCHOICE_FGD || d->classes[r->cls].openb);
}

static int bf_cmp(const void *a, const void *b, void *ctx)
{
	const bf *p = a, *q = b;
	(void)ctx;
	if (p->left != q->left)
		return p->left < q->left ? -1 : 1;
	return (p->i > q->i) - (p->i < q->i);
}

/* under --strategy fgd, the GPU FGDScore chose for this pod on this node */
static int fgd_pick(const search *x, int32_t dev)
{
	const kp_dra *d = x->d;
	return d->choice == KP_DCHOICE_FGD && d->fgd_dev && x->cy && d->fgd_pi == x->cy->pi && d->fgd_dev[x->node] == dev;
}

static int alloc_best_fit(search *x, int ci_pos, uint32_t ri, const kp_dreq *r, int64_t k, bf after)
{
	if (k == 0)
		return alloc_request(x, ci_pos, ri + 1);
	int32_t ci = x->claims[ci_pos];
	/* the candidates in (left, index) order after `after`, one at a time:
	 * the first usually completes the search, so no sort */
	bf prev = after;
	for (;;) {
		bf best = { 0, -1 };
		for (int i = 0; i < x->ncand; i++) {
			bf e = { left_of(x, r, x->cand[i]), i };
			if (fgd_pick(x, x->cand[i]))
				e.left = -1;   /* FGD chose this GPU for the pod on this node: first */
			if ((prev.i >= 0 && bf_cmp(&e, &prev, NULL) <= 0) || (best.i >= 0 && bf_cmp(&e, &best, NULL) >= 0))
				continue;
			int f = fits(x, ci, r, x->cand[i]);
			if (f < 0)
				return -1;
			if (f)
				best = e;
		}
		if (best.i < 0)
			return 0;
		if (push(x, x->cand[best.i], ci, r))
			return KP_NOMEM;
		int rc = alloc_best_fit(x, ci_pos, ri, r, k - 1, best);
		if (rc)
			return rc;
		x->nsol--;
		prev = best;
	}
}

/* mode All over a pool being updated (incomplete) or invalid: kube's error */
static int all_pools_ok(search *x, int32_t ci, const kp_dreq *r)
{
	const kp_dra *d = x->d;
	for (int i = 0; i < d->ndevices; i++) {
		const kp_device *v = &d->devices[i];
		const kp_dpool *p = &d->pools[v->pool];
		if ((!p->incomplete && !p->invalid) || !kp_dra_visible(x->s, d, v, x->node))
			continue;
		int sel = kp_dra_selected(x, ci, r, i);
		if (sel < 0)
			return -1;
		if (!sel)
			continue;
		const kp_dclaim *c = &d->claims[ci];
		snprintf(x->err, x->err_size, "claim %s/%s, request %s: asks for all devices, but resource pool %s/%s is currently %s",
			 kp_str(&x->s->strs, c->ns), kp_str(&x->s->strs, c->name), kp_str(&x->s->strs, r->name),
			 kp_str(&x->s->strs, p->driver), kp_str(&x->s->strs, p->name), p->incomplete ? "being updated" : "invalid");
		return -1;
	}
	return 1;
}

/* mode All: every matching device of the node, none in use */
static int alloc_all(search *x, int ci_pos, uint32_t ri, const kp_dreq *r)
{
	int32_t ci = x->claims[ci_pos];
	int start = x->nsol, any = 0;
	if (all_pools_ok(x, ci, r) < 0)
		return -1;
	for (int i = 0; i < x->ncand; i++) {
		int sel = kp_dra_selected(x, ci, r, x->cand[i]);
		if (sel < 0)
			return -1;
		if (!sel)
			continue;
		int32_t dev = x->cand[i];
		const kp_device *v = &x->d->devices[dev];
		int64_t need[256];
		if (v->allow_multiple && (r->ncaps || v->ncaps) && (v->ncaps > 256 || !share_need(x, r, v, need)))
			continue;   /* consumable capacity: filtered out of "all", not a failure */
		any = 1;
		int f = !in_solution(x, dev) && (r->admin || !x->d->in_use[dev]);
		for (uint32_t t = 0; f && t < v->ntaints; t++)
			f = tolerated(r, &v->taints[t]);
		if (f && !r->admin)
			f = counters_fit(x, v);
		if (!f) {
			x->nsol = start;
			return 0;
		}
		if (!constraints_ok(x, ci, r->name, v)) {
			const kp_dclaim *c = &x->d->claims[ci];
			const kp_dpool *p = &x->d->pools[v->pool];
			snprintf(x->err, x->err_size, "claim %s/%s, request %s: cannot add device %s/%s/%s because a claim constraint "
				 "would not be satisfied", kp_str(&x->s->strs, c->ns), kp_str(&x->s->strs, c->name),
				 kp_str(&x->s->strs, r->name), kp_str(&x->s->strs, p->driver), kp_str(&x->s->strs, p->name),
				 kp_str(&x->s->strs, v->name));
			x->nsol = start;
			return -1;
		}
		if (push(x, x->cand[i], ci, r))
			return KP_NOMEM;
	}
	if (!any)
		return 0;
	int rc = alloc_request(x, ci_pos, ri + 1);
	if (rc <= 0)
		x->nsol = start;
	return rc;
}

static int alloc_request(search *x, int ci_pos, uint32_t ri)
{
	if (ci_pos == x->nclaims)
		return 1;
	const kp_dclaim *c = &x->d->claims[x->claims[ci_pos]];
	if (ri == c->nrequests)
		return alloc_request(x, ci_pos + 1, 0);
	const kp_drequest *rq = &c->requests[ri];
	for (uint32_t a = 0; a < rq->nalts; a++) {
		const kp_dreq *r = &rq->alts[a];
		if (r->cls < 0)
			continue;   /* PreFilter rejected a missing class */
		if (!r->all && r->count > 32) {
			if (rq->nalts > 1 || r->name != rq->name)
				continue;   /* a subrequest asking too many: the next one */
			snprintf(x->err, x->err_size, "claim %s/%s, request %s: number of requested devices %lld exceeds the claim limit of 32",
				 kp_str(&x->s->strs, c->ns), kp_str(&x->s->strs, c->name), kp_str(&x->s->strs, r->name), (long long)r->count);
			return -1;
		}
		int rc = r->all ? alloc_all(x, ci_pos, ri, r) : best_fit(x->d, r) ? alloc_best_fit(x, ci_pos, ri, r, r->count, (bf){ 0, -1 }) : alloc_devices(x, ci_pos, ri, r, r->count, 0);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- PreFilter ---- */

/* the pod's requests of extended resources a DeviceClass maps */
static int ext_count(const kp_snap *s, const kp_dra *d, int32_t pi)
{
	if (!d->ext_off)
		return 0;
	int c = s->pods[pi].cls;
	return d->ext_off[c + 1] - d->ext_off[c];
}

/* device v's consumption added to (sign 1) its pool's counters */
static void consume(kp_dra *d, const kp_device *v, int sign)
{
	const kp_dpool *p = &d->pools[v->pool];
	for (uint32_t k = 0; k < v->nconsumes; k++)
		for (uint32_t j = 0; j < p->ncounters; j++)
			if (p->counters[j].set == v->consumes[k].set && p->counters[j].name == v->consumes[k].name)
				d->pool_used[d->counter_off[v->pool] + (int32_t)j] += sign * v->consumes[k].value;
}

static int fail(const char **msg, const char *text)
{
	*msg = text;
	return text ? KP_PREFILTER_FAIL : KP_NOMEM;
}

/* the pools' counters used by the devices in use (imported allocations),
 * once; Reserve adds the run's */
static int counters_init(kp_dra *d)
{
	if (d->counter_off)
		return KP_OK;
	d->counter_off = kp_calloc((size_t)d->npools + 1, sizeof *d->counter_off);
	if (!d->counter_off)
		return KP_NOMEM;
	for (int p = 0; p < d->npools; p++)
		d->counter_off[p + 1] = d->counter_off[p] + (int32_t)d->pools[p].ncounters;
	d->pool_used = kp_calloc((size_t)d->counter_off[d->npools] + 1, sizeof *d->pool_used);
	if (!d->pool_used)
		return KP_NOMEM;
	for (int i = 0; i < d->ndevices; i++)
		for (int32_t u = 0; u < d->in_use[i]; u++)
			consume(d, &d->devices[i], 1);
	return KP_OK;
}

int kp_dra_prefilter(kp_cycle *cy, const char **msg)
{
	kp_snap *s = cy->s;
	kp_dra *d = s->dra;
	if (!d || (d->claim_off[cy->pi] == d->claim_off[cy->pi + 1] && !ext_count(s, d, cy->pi)))
		return KP_SKIP;
	if (counters_init(d))
		return KP_NOMEM;
	const char *ns = kp_str(&s->strs, cy->p->ns), *pod = kp_str(&s->strs, cy->p->name);
	for (int32_t k = d->claim_off[cy->pi]; k < d->claim_off[cy->pi + 1]; k++) {
		const char *name = kp_str(&s->strs, d->claim_name[k]);
		if (d->claim_err[k] & 1)
			return fail(msg, kp_arena_printf(&cy->arena, "pod \"%s/%s\": ResourceClaim not created yet", ns, pod));
		if (d->claim[k] < 0)
			return fail(msg, kp_arena_printf(&cy->arena, "could not find ResourceClaim \"%s/%s\"", ns, name));
		const kp_dclaim *c = &d->claims[d->claim[k]];
		if (c->deleting)
			return fail(msg, kp_arena_printf(&cy->arena, "resourceclaim \"%s\" is being deleted", name));
		if ((d->claim_err[k] & 2) &&
		    !(c->owner_kind >= 0 && !strcmp(kp_str(&s->strs, c->owner_kind), "Pod") && c->owner_name == cy->p->name))
			return fail(msg, kp_arena_printf(&cy->arena, "ResourceClaim %s/%s was not created for pod %s/%s (pod is not owner)",
							    ns, name, ns, pod));
		if (c->allocated || c->run_allocated)
			continue;
		for (uint32_t r = 0; r < c->nrequests; r++)
			for (uint32_t a = 0; a < c->requests[r].nalts; a++) {
				const kp_dreq *q = &c->requests[r].alts[a];
				if (q->cls < 0)
					return fail(msg, kp_arena_printf(&cy->arena, "request %s: device class %s does not exist",
									    kp_str(&s->strs, q->name), kp_str(&s->strs, q->cls_name)));
			}
	}
	return KP_OK;
}

/* ---- Filter ---- */

/* an allocated claim can be used on node n: its node selector (imported) or
 * the nodes its devices are visible on (allocated by this run) */
int kp_dra_claim_on_node(const kp_snap *s, const kp_dra *d, const kp_dclaim *c, int n)
{
	if (c->node >= 0)
		return c->node == n;
	if (c->allocated && !c->run_allocated) {
		return !c->nterms || kp_nterms_any(s, c->terms, c->nterms, n);
	}
	for (uint32_t i = 0; i < c->nresults; i++)
		if (!kp_dra_visible(s, d, &d->devices[c->results[i].device], n))
			return 0;
	return 1;
}

/* the claims of pod pi still to allocate, deduplicated, into out; their count */
static int to_allocate(const kp_dra *d, int32_t pi, int32_t *out)
{
	int n = 0;
	for (int32_t k = d->claim_off[pi]; k < d->claim_off[pi + 1]; k++) {
		int32_t ci = d->claim[k];
		if (ci < 0 || d->claims[ci].allocated || d->claims[ci].run_allocated)
			continue;
		int dup = 0;
		for (int j = 0; j < n && !dup; j++)
			dup = out[j] == ci;
		if (!dup)
			out[n++] = ci;
	}
	return n;
}

/* Filter's verdict without the search, where counting decides it (issue
 * 18): one claim with one request of `count` devices (no firstAvailable,
 * not All, no constraints) and candidates without pool counters.  Then
 * whether a candidate fits depends on none of the other picks, except that
 * a device is picked once, so the search (kube's order or best fit alike)
 * succeeds exactly when `count` candidates fit.  1 yes, 0 no, 2 the search
 * must run (also on a selector error, which the search reports its way). */
static int count_verdict(search *x)
{
	const kp_dra *d = x->d;
	if (x->nclaims != 1 || x->claims[0] >= d->nclaims)
		return 2;
	const kp_dclaim *c = &d->claims[x->claims[0]];
	if (c->nrequests != 1 || c->nconstraints || c->requests[0].nalts != 1)
		return 2;
	const kp_dreq *r = &c->requests[0].alts[0];
	if (r->cls < 0 || r->all || r->count < 0 || r->count > 32)
		return 2;
	int64_t have = 0;
	for (int i = 0; i < x->ncand; i++) {
		if (d->devices[x->cand[i]].nconsumes && !r->admin)
			return 2;
		int f = fits(x, x->claims[0], r, x->cand[i]);
		if (f < 0)
			return 2;
		have += f;
	}
	return have >= r->count;
}

/* the allocator for pod pi on node n (kp_dra_allocate); verdict_only:
 * Filter's question, no solution needed (count_verdict) */
static int allocate(search *x, kp_cycle *cy, int32_t pi, int n, char *err, size_t size, int verdict_only)
{
	kp_dra *d = cy->s->dra;
	if (!d->cache) {
		d->cache = kp_calloc(1, sizeof(kp_dmap));
		if (!d->cache || kp_dmap_init(d->cache, 1024))
			return -2;
		/* dense when small enough (openb: 24 requests x 6,212 devices) */
		if ((size_t)d->nreqs * (size_t)d->ndevices <= ((size_t)1 << 24))
			d->sel = kp_calloc((size_t)d->nreqs * (size_t)d->ndevices + 1, 1);
	}
	int32_t *claims = kp_arena_alloc(&cy->arena, ((size_t)(d->claim_off[pi + 1] - d->claim_off[pi]) + 1) * sizeof *claims);
	if (!claims)
		return -2;
	memset(x, 0, sizeof *x);
	x->err = err;
	x->err_size = size;
	x->cy = cy;
	x->s = cy->s;
	x->d = d;
	x->node = n;
	x->claims = claims;
	x->nclaims = to_allocate(d, pi, claims);
	/* the extended resources the node does not advertise: one in-memory
	 * claim, allocated last (§16.8) */
	int ne = ext_count(x->s, d, pi);
	if (ne) {
		int c = x->s->pods[pi].cls, m = 0;
		kp_dclaim *ec = &d->claims[d->nclaims];
		ec->requests = kp_arena_alloc(&cy->arena, (size_t)ne * sizeof *ec->requests);
		if (!ec->requests)
			return -2;
		for (int32_t e = d->ext_off[c]; e < d->ext_off[c + 1]; e++)
			if (kp_dra_delegated(x->s, d->ext_res[e], n))
				ec->requests[m++] = (kp_drequest){ d->ext[e].name, 1, &d->ext[e] };
		ec->nrequests = (uint32_t)m;
		ec->ns = x->s->pods[pi].ns;
		ec->name = x->s->pods[pi].name;
		if (m) {
			int32_t *more = kp_arena_alloc(&cy->arena, ((size_t)x->nclaims + 1) * sizeof *more);
			if (!more)
				return -2;
			memcpy(more, claims, (size_t)x->nclaims * sizeof *more);
			more[x->nclaims++] = d->nclaims;
			x->claims = more;
		}
	}
	if (!x->nclaims)
		return 1;
	if (kp_dra_candidates(x))
		return -2;
	int v = verdict_only ? count_verdict(x) : 2;
	return v != 2 ? v : alloc_request(x, 0, 0);
}

/* run the allocator for pod pi on node n; 1 found (x->sol), 0 not, -1 error (x->err) */
int kp_dra_allocate(search *x, kp_cycle *cy, int32_t pi, int n, char *err, size_t size)
{
	return allocate(x, cy, pi, n, err, size, 0);
}

int kp_dra_filter(kp_cycle *cy, int node, const char **msg)
{
	kp_snap *s = cy->s;
	const kp_dra *d = s->dra;
	uint64_t key;
	int memo;
	if (kp_dra_memo_get(s->dra, s, cy->pi, node, &key, &memo, msg))
		return memo;
	search x;
	char err[512];
	err[0] = 0;
	/* plan --reference runs the search, so 44-fast-vs-reference.t checks the count */
	int rc = allocate(&x, cy, cy->pi, node, err, sizeof err, !d->no_memo);
	kp_free(x.sol);
	if (rc == -2) {
		*msg = NULL;
		return -1;
	}
	if (rc < 0) {
		/* an allocator error (kube: an Error status, the cycle ends) */
		*msg = kp_arena_printf(&cy->arena, "%s", err);
		if (!cy->abort_msg)
			cy->abort_msg = kp_arena_printf(&cy->arena, "running \"DynamicResources\" filter plugin: %s", err);
		return 1;
	}
	if (rc == 0) {
		/* the allocator ran, so the node's device list exists */
		*msg = kp_dra_msgs[d->node_invalid && d->node_invalid[node] ? KP_DRA_MSG_INVALID_POOLS : KP_DRA_MSG_CANNOT];
		kp_dra_memo_put(s->dra, s, cy->pi, node, key, 1, *msg);
		return 1;
	}
	for (int32_t k = d->claim_off[cy->pi]; k < d->claim_off[cy->pi + 1]; k++) {
		int32_t ci = d->claim[k];
		if (ci >= 0 && (d->claims[ci].allocated || d->claims[ci].run_allocated) && !kp_dra_claim_on_node(s, d, &d->claims[ci], node)) {
			*msg = kp_dra_msgs[KP_DRA_MSG_NOT_ON_NODE];
			return 1;
		}
	}
	kp_dra_memo_put(s->dra, s, cy->pi, node, key, 0, NULL);
	return 0;
}

/* ---- an added node ---- */

int kp_dra_fits_node(kp_cycle *cy, int32_t pi, int n)
{
	kp_dra *d = cy->s->dra;
	if (!d || (d->claim_off[pi] == d->claim_off[pi + 1] && !ext_count(cy->s, d, pi)))
		return 1;
	for (int32_t k = d->claim_off[pi]; k < d->claim_off[pi + 1]; k++)
		if (d->claim[k] >= 0 && (d->claims[d->claim[k]].allocated || d->claims[d->claim[k]].run_allocated) &&
		    !kp_dra_claim_on_node(cy->s, d, &d->claims[d->claim[k]], n))
			return 0;
	/* an empty node: its own devices free (node-local ones the run's pods
	 * took there, which are the template's copies), in use again after */
	int32_t *saved = NULL;
	for (int i = 0; i < d->ndevices; i++) {
		const kp_device *v = &d->devices[i];
		if (!d->in_use[i] || (d->slices[v->slice].node != n && v->node != n))
			continue;
		if (!saved && (counters_init(d) || !(saved = kp_calloc((size_t)d->ndevices, sizeof *saved))))
			return 1;   /* out of memory: say it may fit (the count stays an upper bound's) */
		saved[i] = d->in_use[i];
		for (int32_t u = 0; u < saved[i]; u++)
			consume(d, v, -1);
		d->in_use[i] = 0;
	}
	search x;
	char err[512] = "";
	int rc = kp_dra_allocate(&x, cy, pi, n, err, sizeof err);
	kp_free(x.sol);
	for (int i = 0; saved && i < d->ndevices; i++) {
		if (!saved[i])
			continue;
		d->in_use[i] = saved[i];
		for (int32_t u = 0; u < saved[i]; u++)
			consume(d, &d->devices[i], 1);
	}
	kp_free(saved);
	return rc == 1;
}

/* ---- a pod that leaves ---- */

int kp_dra_release_owned(kp_snap *s, int32_t pi)
{
	kp_dra *d = s->dra;
	if (!d)
		return KP_OK;
	if (counters_init(d))
		return KP_NOMEM;
	d->memo_pi = 0;
	for (int i = 0; i < d->next_run; i++)
		if (d->ext_run[i].pod == pi && !d->ext_run[i].released) {
			d->ext_run[i].released = 1;
			if (d->in_use[d->ext_run[i].device] > 0)
				d->in_use[d->ext_run[i].device]--;
			consume(d, &d->devices[d->ext_run[i].device], -1);
			kp_dra_touched(d, d->ext_run[i].device);
		}
	const kp_pod *p = &s->pods[pi];
	for (int32_t k = d->claim_off[pi]; k < d->claim_off[pi + 1]; k++) {
		if (d->claim[k] < 0)
			continue;
		kp_dclaim *c = &d->claims[d->claim[k]];
		if (!(c->allocated || c->run_allocated) || c->owner_name != p->name || c->owner_kind < 0 ||
		    strcmp(kp_str(&s->strs, c->owner_kind), "Pod"))
			continue;
		for (uint32_t i = 0; i < c->nresults; i++) {
			const kp_device *v = &d->devices[c->results[i].device];
			kp_dra_touched(d, c->results[i].device);
			if (c->results[i].share) {
				for (uint32_t k = 0; k < v->ncaps && c->results[i].consumed; k++)
					d->consumed[v->cap_off + (int32_t)k] -= c->results[i].consumed[k];
			} else if (!c->results[i].admin && d->in_use[c->results[i].device] > 0) {
				d->in_use[c->results[i].device]--;
				consume(d, v, -1);
			}
		}
		c->allocated = c->run_allocated = 0;
		c->nresults = c->nterms = 0;
		c->node = -1;
	}
	return KP_OK;
}

/* ---- Reserve ---- */

/* the (sub)request of claim c named name */
static const kp_dreq *find_req(const kp_dclaim *c, kp_sid name)
{
	for (uint32_t r = 0; r < c->nrequests; r++)
		for (uint32_t a = 0; a < c->requests[r].nalts; a++)
			if (c->requests[r].alts[a].name == name)
				return &c->requests[r].alts[a];
	return NULL;
}

static int reserve(kp_snap *s, int32_t pi, int n, kp_cycle *cy, int record);

int kp_dra_reserve(kp_snap *s, int32_t pi, int n, kp_cycle *cy)
{
	return reserve(s, pi, n, cy, 1);
}

int kp_dra_restore(kp_snap *s, int32_t pi, int n, kp_cycle *cy)
{
	return reserve(s, pi, n, cy, 0);
}

/* Reserve's work; record: the run made the allocation (dra_allocation),
 * else it gives back what the pod held (rebalance's undo) */
static int reserve(kp_snap *s, int32_t pi, int n, kp_cycle *cy, int record)
{
	kp_dra *d = s->dra;
	/* DynamicResourceAllocation off (before 1.34): kube-scheduler never
	 * allocates the claims (dynamic_resources.c) */
	if (!d || !kp_kube_on(&s->kube, KP_FG_DYNAMIC_RESOURCE_ALLOCATION) ||
	    (d->claim_off[pi] == d->claim_off[pi + 1] && !ext_count(s, d, pi)))
		return KP_OK;
	d->memo_pi = 0;   /* its claims change: the memo's pod key is stale */
	search x;
	char err[512] = "";
	int rc = kp_dra_allocate(&x, cy, pi, n, err, sizeof err);
	if (rc == -2) {
		kp_free(x.sol);
		return KP_NOMEM;
	}
	for (int j = 0; rc == 1 && j < x.nclaims; j++) {
		if (x.claims[j] == d->nclaims) {
			/* extended resources: the devices are the pod's, not a claim's */
			for (int i = 0; i < x.nsol; i++) {
				if (x.sol[i].claim != d->nclaims)
					continue;
				if (KP_GROW(d->ext_run, d->next_run, d->cap_ext_run, 16)) {
					kp_free(x.sol);
					return KP_NOMEM;
				}
				d->ext_run[d->next_run++] = (struct kp_dext){ pi, n, x.sol[i].device, x.sol[i].request, 0 };
				d->in_use[x.sol[i].device]++;
				consume(d, &d->devices[x.sol[i].device], 1);
				kp_dra_touched(d, x.sol[i].device);
			}
			continue;
		}
		kp_dclaim *c = &d->claims[x.claims[j]];
		uint32_t k = 0;
		for (int i = 0; i < x.nsol; i++)
			k += x.sol[i].claim == x.claims[j];
		c->results = kp_arena_alloc(&s->arena, (k ? k : 1) * sizeof *c->results);
		if (!c->results) {
			kp_free(x.sol);
			return KP_NOMEM;
		}
		c->nresults = 0;
		c->node = -1;
		for (int i = 0; i < x.nsol; i++) {
			if (x.sol[i].claim != x.claims[j])
				continue;
			const kp_device *v = &d->devices[x.sol[i].device];
			kp_dresult *res = &c->results[c->nresults++];
			kp_dra_touched(d, x.sol[i].device);
			*res = (kp_dresult){ x.sol[i].device, x.sol[i].request, x.sol[i].admin, 0, NULL };
			if (d->slices[v->slice].node >= 0 || v->node >= 0 || v->binds_to_node)
				c->node = n;   /* a node-local device: the claim is for this node only */
			if (v->allow_multiple) {
				/* a share: it consumes capacity, the device stays open to others */
				const kp_dreq *rq = find_req(c, x.sol[i].request);
				res->share = 1;
				res->consumed = kp_arena_alloc(&s->arena, (v->ncaps ? v->ncaps : 1) * sizeof *res->consumed);
				if (!res->consumed || !rq || !share_need(&x, rq, v, res->consumed)) {
					kp_free(x.sol);
					return KP_NOMEM;
				}
				for (uint32_t k = 0; k < v->ncaps; k++)
					d->consumed[v->cap_off + (int32_t)k] += res->consumed[k];
			} else if (!x.sol[i].admin) {
				d->in_use[x.sol[i].device]++;
				consume(d, v, 1);
			}
		}
		if (!record) {
			c->allocated = 1;   /* as it was before the pod left */
			continue;
		}
		c->run_allocated = 1;
		if (KP_GROW(d->run, d->nrun, d->cap_run, 16)) {
			kp_free(x.sol);
			return KP_NOMEM;
		}
		d->run[d->nrun++] = (struct kp_dalloc){ pi, x.claims[j], n };
	}
	kp_free(x.sol);
	return KP_OK;
}
