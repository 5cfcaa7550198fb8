/*
 * pod_topology_spread.c — PodTopologySpread (kube-scheduler-semantics.md §10;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/podtopologyspread/
 * {common,filtering,scoring,plugin}.go).
 *
 * Constraints: the pod's own topologySpreadConstraints (matchLabelKeys merged
 * with the pod's label values), or — when it has none — the default ones:
 * defaultingType System gives {hostname, maxSkew 3} and {zone, maxSkew 5},
 * both ScheduleAnyway; List gives the profile's defaultConstraints.  Default
 * constraints select with the Services, ReplicationControllers, ReplicaSets
 * and StatefulSets (and Deployments, standing for their ReplicaSets) that
 * select the pod; none, and there are no default constraints.
 *
 * Filter (DoNotSchedule): per constraint, matching pods counted per domain
 * over the nodes that carry every hard topology key and pass the node
 * inclusion policies; skew = domain count + self - min over domains (0 when
 * fewer than minDomains domains).  Score (ScheduleAnyway): count x ln(domains
 * + 2) + maxSkew - 1 summed, rounded, then normalised so that fewer matching
 * pods score higher.
 */
#include "../cycle.h"

#include <math.h>
#include <string.h>

/* helper/spread.go DefaultSelector: the selectors of the Services in the
 * pod's namespace that select it, AND the selector of its controller
 * (ReplicationController, ReplicaSet, StatefulSet; a Deployment for the pods
 * it generated) */
static int default_selector(kp_cycle *cy, kp_sel *out)
{
	const kp_snap *s = cy->s;
	const kp_sel *owner = cy->p->owner_sel >= 0 ? &s->owner_sels[cy->p->owner_sel].sel : NULL;
	memset(out, 0, sizeof *out);
	uint32_t n = owner && owner->present ? owner->n : 0;
	for (int i = 0; i < s->nservice_sels; i++)
		if (s->service_sels[i].ns == cy->p->ns && kp_sel_match(&s->service_sels[i].sel, &cy->p->labels, &s->strs))
			n += s->service_sels[i].sel.n;
	if (!n)
		return KP_OK;
	out->reqs = kp_arena_alloc(&cy->arena, n * sizeof *out->reqs);
	if (!out->reqs)
		return KP_NOMEM;
	for (int i = 0; i < s->nservice_sels; i++)
		if (s->service_sels[i].ns == cy->p->ns && kp_sel_match(&s->service_sels[i].sel, &cy->p->labels, &s->strs)) {
			memcpy(out->reqs + out->n, s->service_sels[i].sel.reqs, s->service_sels[i].sel.n * sizeof *out->reqs);
			out->n += s->service_sels[i].sel.n;
		}
	if (owner && owner->present && owner->n) {
		memcpy(out->reqs + out->n, owner->reqs, owner->n * sizeof *out->reqs);
		out->n += owner->n;
	}
	out->present = 1;
	return KP_OK;
}

/* the selector with matchLabelKeys merged: key In (pod's value) for keys the pod has */
static int merged_selector(kp_cycle *cy, const kp_spread *sp, kp_sel *out)
{
	*out = sp->sel;
	if (!sp->nmlk || !sp->sel.present)
		return KP_OK;
	kp_sreq *r = kp_arena_alloc(&cy->arena, (sp->sel.n + sp->nmlk) * sizeof *r);
	if (!r)
		return KP_NOMEM;
	memcpy(r, sp->sel.reqs, sp->sel.n * sizeof *r);
	uint32_t n = sp->sel.n;
	for (uint32_t i = 0; i < sp->nmlk; i++) {
		kp_sid v = kp_labels_get(&cy->p->labels, sp->mlk[i]);
		if (v < 0)
			continue;
		kp_sid *vals = kp_arena_alloc(&cy->arena, sizeof *vals);
		if (!vals)
			return KP_NOMEM;
		vals[0] = v;
		r[n++] = (kp_sreq){ sp->mlk[i], KP_OP_IN, 1, vals, 0, 0 };
	}
	out->reqs = r;
	out->n = n;
	return KP_OK;
}

static int add_constraint(kp_cycle *cy, kp_sid topo, int64_t max_skew, int64_t min_domains, int hard,
			  int honor_affinity, int honor_taints, const kp_sel *sel)
{
	if (cy->ncs == cy->cap_cs) {
		int cap = cy->cap_cs ? cy->cap_cs * 2 : 4;
		kp_cstate *v = kp_realloc(cy->cs, (size_t)cap * sizeof *v);
		if (!v)
			return KP_NOMEM;
		for (int i = cy->cap_cs; i < cap; i++) {
			v[i].dcnt = NULL;
			v[i].dpres = NULL;
			v[i].dcap = 0;
			v[i].host_cnt = NULL;
			v[i].host_scattered = -1;
			v[i].elig = v[i].elig_dpres = NULL;
		}
		cy->cs = v;
		cy->cap_cs = cap;
	}
	kp_cstate *c = &cy->cs[cy->ncs++];
	c->topo = topo;
	const kp_topo *tp = kp_snap_topo(cy->s, topo);
	if (!tp)
		return KP_NOMEM;
	c->tv = tp->val;
	c->dom = tp->dom;
	c->ndom = tp->ndom;
	if (tp->ndom + 1 > c->dcap) {
		int64_t *dc = kp_realloc(c->dcnt, (size_t)(tp->ndom + 1) * sizeof *dc);
		if (!dc)
			return KP_NOMEM;
		c->dcnt = dc;
		uint8_t *dp = kp_realloc(c->dpres, (size_t)tp->ndom + 1);
		if (!dp)
			return KP_NOMEM;
		c->dpres = dp;
		c->dcap = tp->ndom + 1;
	}
	c->max_skew = max_skew;
	c->min_domains = min_domains;
	c->hard = (uint8_t)hard;
	c->honor_affinity = (uint8_t)honor_affinity;
	c->honor_taints = (uint8_t)honor_taints;
	c->sel = *sel;
	c->self_match = (uint8_t)kp_sel_match(sel, &cy->p->labels, &cy->s->strs);
	c->is_host = topo == cy->s->s_hostname;
	c->counter = kp_counter_get(cy->s, cy->p->ns, sel, 0);
	if (c->counter < 0)
		return KP_NOMEM;
	c->host_view = NULL;
	c->min_match = 0;
	c->weight = 0;
	if (hard)
		cy->nhard++;
	return KP_OK;
}

/* all constraints of the pod (hard and soft), once per cycle */
static int build(kp_cycle *cy)
{
	if (cy->spread_built)
		return KP_OK;
	cy->spread_built = 1;
	cy->ncs = 0;
	cy->nhard = 0;
	const kp_class *c = cy->c;
	if (c->nspreads) {
		for (uint32_t i = 0; i < c->nspreads; i++) {
			const kp_spread *sp = &c->spreads[i];
			kp_sel sel;
			if (merged_selector(cy, sp, &sel) || add_constraint(cy, sp->topo, sp->max_skew, sp->min_domains, sp->hard,
									   sp->honor_affinity, sp->honor_taints, &sel))
				return KP_NOMEM;
		}
		return KP_OK;
	}
	kp_sel sel;
	if (default_selector(cy, &sel))
		return KP_NOMEM;
	if (!sel.present || !sel.n)
		return KP_OK;
	if (cy->pf->spread_system_defaults) {
		if (add_constraint(cy, cy->s->s_hostname, 3, 1, 0, 1, 0, &sel) ||
		    add_constraint(cy, cy->s->s_zone, 5, 1, 0, 1, 0, &sel))
			return KP_NOMEM;
		return KP_OK;
	}
	for (int i = 0; i < cy->pf->ndefault_spread; i++) {
		const kp_default_spread *d = &cy->pf->default_spread[i];
		kp_sid topo = kp_strtab_intern(&cy->s->strs, d->topology_key);
		if (topo < 0 || add_constraint(cy, topo, d->max_skew, 1, d->hard, 1, 0, &sel))
			return KP_NOMEM;
	}
	return KP_OK;
}

static int inclusion_ok(const kp_cycle *cy, const kp_cstate *c, int node)
{
	if (c->honor_affinity && !kp_bit(cy->c->affinity_ok, node))
		return 0;
	if (c->honor_taints && !kp_bit(cy->c->taints_ok, node))
		return 0;
	return 1;
}

/* node carries every hard constraint's topology key */
static int has_hard_keys(const kp_cycle *cy, int node)
{
	for (int k = 0; k < cy->ncs; k++)
		if (cy->cs[k].hard && cy->cs[k].tv[node] < 0)
			return 0;
	return 1;
}

/* each hard constraint's elig arrays: which nodes pre_filter counts —
 * they carry every hard key and pass the constraint's inclusion policies —
 * and so which domains are present.  These depend on the class and the
 * profile only (the nodes' labels and the class's static verdicts) and on
 * the nodes gone (kp_snap.gone_gen), so they are found once for each.
 * KP_OK or KP_NOMEM. */
static int list_eligible(kp_cycle *cy)
{
	const kp_snap *s = cy->s;
	if (cy->elig_cls == cy->p->cls && cy->elig_pf == cy->pf && cy->elig_gone == s->gone_gen)
		return KP_OK;
	cy->elig_cls = -1;
	for (int k = 0; k < cy->ncs; k++) {
		kp_cstate *c = &cy->cs[k];
		if (!c->hard)
			continue;
		if (!c->elig && !(c->elig = kp_malloc((size_t)(s->nnodes ? s->nnodes : 1))))
			return KP_NOMEM;
		uint8_t *dp = kp_realloc(c->elig_dpres, (size_t)c->ndom + 1);
		if (!dp)
			return KP_NOMEM;
		c->elig_dpres = dp;
		memset(dp, 0, (size_t)c->ndom + 1);
		c->elig_dsize = 0;
		for (int n = 0; n < s->nnodes; n++) {
			c->elig[n] = (uint8_t)(!kp_snap_gone(s, n) && has_hard_keys(cy, n) && inclusion_ok(cy, c, n));
			if (c->elig[n] && !dp[c->dom[n]]) {
				dp[c->dom[n]] = 1;
				c->elig_dsize++;
			}
		}
	}
	cy->elig_cls = cy->p->cls;
	cy->elig_pf = cy->pf;
	cy->elig_gone = s->gone_gen;
	return KP_OK;
}

static int pre_filter(kp_cycle *cy)
{
	if (build(cy))
		return KP_NOMEM;
	if (!cy->nhard)
		return KP_SKIP;
	const kp_snap *s = cy->s;
	if (list_eligible(cy))
		return KP_NOMEM;
	/* counted afresh on every call: a preemption dry run calls again after
	 * removing victims.  Per domain (dense index): whether a node that
	 * carries every hard key and passes the inclusion policies is in it
	 * (the class's, list_eligible), and the matching pods on those nodes
	 * (from the counter: the nodes with some) */
	for (int k = 0; k < cy->ncs; k++) {
		kp_cstate *c = &cy->cs[k];
		if (!c->hard)
			continue;
		memset(c->dcnt, 0, (size_t)c->dcap * sizeof *c->dcnt);
		memcpy(c->dpres, c->elig_dpres, (size_t)c->ndom + 1);
		c->dsize = c->elig_dsize;
		const kp_counter *ct = kp_snap_counter(s, c->counter);
		kp_counter_it it;
		for (int ok = kp_counter_first(ct, &it); ok; ok = kp_counter_next(ct, &it))
			if (c->elig[it.node])
				c->dcnt[c->dom[it.node]] += it.count;
	}
	for (int k = 0; k < cy->ncs; k++) {
		kp_cstate *c = &cy->cs[k];
		if (!c->hard)
			continue;
		int64_t min = INT64_MAX;
		for (int32_t d = 0; d < c->ndom; d++)
			if (c->dpres[d] && c->dcnt[d] < min)
				min = c->dcnt[d];
		c->min_match = c->dsize < c->min_domains || min == INT64_MAX ? 0 : min;
	}
	return KP_OK;
}

static int filter(kp_cycle *cy, int node)
{
	for (int k = 0; k < cy->ncs; k++) {
		const kp_cstate *c = &cy->cs[k];
		if (!c->hard)
			continue;
		kp_sid v = c->tv[node];
		if (v < 0) {
			kp_cycle_fail(cy, node, KP_P_POD_TOPOLOGY_SPREAD, cy->r_spread_missing, 1);
			return 1;
		}
		int32_t d = c->dom[node];
		int64_t skew = (c->dpres[d] ? c->dcnt[d] : 0) + c->self_match - c->min_match;
		if (skew > c->max_skew) {
			kp_cycle_fail(cy, node, KP_P_POD_TOPOLOGY_SPREAD, cy->r_spread, 0);
			return 1;
		}
	}
	return 0;
}

/* a soft hostname constraint's counts per node for Score: the counter's own
 * dense array, or the sparse counter scattered into the constraint's scratch
 * (the previous counter there unscattered first: O(its entries)) */
static int host_counts(kp_cycle *cy, kp_cstate *c)
{
	const kp_snap *s = cy->s;
	if (c->host_cnt && c->host_scattered >= 0) {
		kp_counter_unscatter(kp_snap_counter(s, c->host_scattered), c->host_cnt);
		c->host_scattered = -1;
	}
	const kp_counter *ct = kp_snap_counter(s, c->counter);
	c->host_view = kp_counter_dense(ct);
	if (c->host_view)
		return KP_OK;
	if (!c->host_cnt) {
		c->host_cnt = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *c->host_cnt);
		if (!c->host_cnt)
			return KP_NOMEM;
	}
	kp_counter_scatter(ct, c->host_cnt);
	c->host_scattered = c->counter;
	c->host_view = c->host_cnt;
	return KP_OK;
}

static int require_all_soft(const kp_cycle *cy)
{
	return cy->c->nspreads > 0 || !cy->pf->spread_system_defaults;
}

static int has_all_soft(const kp_cycle *cy, int n)
{
	for (int j = 0; j < cy->ncs; j++)
		if (!cy->cs[j].hard && cy->cs[j].tv[n] < 0)
			return 0;
	return 1;
}

/* the scored nodes (nodes[i] standing for mult[i] of them, 1 when mult is
 * NULL): each is ignored when it lacks a soft constraint's key and every
 * key is required, else its domains are present (dpres, dsize); the
 * ignored ones counted */
static int64_t mark_scored(kp_cycle *cy, const int32_t *nodes, const int64_t *mult, int n, int require_all)
{
	int64_t nignored = 0;
	for (int i = 0; i < n; i++) {
		int node = nodes[i];
		cy->spread_ignored[node] = require_all && !has_all_soft(cy, node);
		if (cy->spread_ignored[node]) {
			nignored += mult ? mult[i] : 1;
			continue;
		}
		for (int k = 0; k < cy->ncs; k++) {
			kp_cstate *c = &cy->cs[k];
			if (c->hard || c->is_host)
				continue;
			int32_t d = c->dom[node] < 0 ? c->ndom : c->dom[node];
			if (!c->dpres[d]) {
				c->dpres[d] = 1;
				c->dsize++;
			}
		}
	}
	return nignored;
}

static int pre_score(kp_cycle *cy)
{
	return kp_spread_pre_score_summary(cy, cy->feas, NULL, cy->nfeas, cy->nfeas);
}

/* llround for a non-negative double, exactly (x - floor(x) is exact) */
static int64_t round_half_up(double x)
{
	double f = floor(x);
	return (int64_t)f + (x - f >= 0.5);
}

static int64_t score(kp_cycle *cy, int node)
{
	if (cy->spread_ignored[node])
		return 0;
	double sc = 0;
	for (int k = 0; k < cy->ncs; k++) {
		const kp_cstate *c = &cy->cs[k];
		if (c->hard || c->tv[node] < 0)
			continue;
		int64_t cnt;
		if (c->is_host) {
			cnt = c->host_view[node];
		} else {
			int32_t d = c->dom[node];
			cnt = c->dpres[d] ? c->dcnt[d] : 0;
		}
		sc += (double)cnt * c->weight + (double)(c->max_skew - 1);
	}
	return sc >= 0 ? round_half_up(sc) : (int64_t)llround(sc);
}

static void normalize(kp_cycle *cy, int64_t *scores)
{
	int64_t min = INT64_MAX, max = 0;
	for (int i = 0; i < cy->nfeas; i++) {
		int n = cy->feas[i];
		if (cy->spread_ignored[n])
			continue;
		if (scores[n] < min)
			min = scores[n];
		if (scores[n] > max)
			max = scores[n];
	}
	for (int i = 0; i < cy->nfeas; i++) {
		int n = cy->feas[i];
		if (cy->spread_ignored[n])
			scores[n] = 0;
		else if (max == 0)
			scores[n] = 100;
		else
			scores[n] = 100 * (max + min - scores[n]) / max;
	}
}

/* ---- the node buckets' view (plan_bucket.c; cycle.h) ---- */

int kp_spread_prepare(kp_cycle *cy)
{
	if (build(cy))
		return KP_NOMEM;
	for (int k = 0; k < cy->ncs; k++)
		if (!cy->cs[k].hard)
			return KP_OK;
	return KP_SKIP;
}

int64_t kp_spread_count(const kp_cycle *cy, const kp_cstate *c, int node)
{
	return kp_counter_count(kp_snap_counter(cy->s, c->counter), node);
}

/* PreScore over the scored nodes, or a summary of them: reps[i] stands for
 * mult[i] nodes of the same domains (mult NULL: 1 each; total in all).
 * Soft constraints: per domain (dense index; the absent label is domain
 * ndom, the value "" as in kube) whether a scored node is in it, and its
 * matching pods, counted over the counter's nodes with matching pods. */
int kp_spread_pre_score_summary(kp_cycle *cy, const int32_t *reps, const int64_t *mult, int nreps, int64_t total)
{
	if (build(cy))
		return KP_NOMEM;
	int nsoft = 0;
	for (int k = 0; k < cy->ncs; k++)
		nsoft += !cy->cs[k].hard;
	if (!nsoft || !total)
		return KP_SKIP;
	int require_all = require_all_soft(cy);
	for (int k = 0; k < cy->ncs; k++) {
		kp_cstate *c = &cy->cs[k];
		if (c->hard || c->is_host)
			continue;
		memset(c->dpres, 0, (size_t)c->ndom + 1);
		c->dsize = 0;
	}
	int64_t nignored = mark_scored(cy, reps, mult, nreps, require_all);
	for (int k = 0; k < cy->ncs; k++) {
		kp_cstate *c = &cy->cs[k];
		if (c->hard)
			continue;
		c->weight = log((double)((c->is_host ? total - nignored : c->dsize) + 2));
		if (c->is_host) {
			if (host_counts(cy, c))
				return KP_NOMEM;
			continue;
		}
		memset(c->dcnt, 0, ((size_t)c->ndom + 1) * sizeof *c->dcnt);
		const kp_counter *ct = kp_snap_counter(cy->s, c->counter);
		kp_counter_it it;
		for (int ok = kp_counter_first(ct, &it); ok; ok = kp_counter_next(ct, &it)) {
			int n = it.node;
			int32_t d = c->dom[n] < 0 ? c->ndom : c->dom[n];
			if (!c->dpres[d] || kp_snap_gone(cy->s, n) || !inclusion_ok(cy, c, n) ||
			    (require_all && !has_all_soft(cy, n)))
				continue;
			c->dcnt[d] += it.count;
		}
	}
	return KP_OK;
}

const kp_plugin kp_plugin_pod_topology_spread = {
	.name = "PodTopologySpread",
	.weight = 2,
	.pre_filter = pre_filter,
	.filter = filter,
	.pre_score = pre_score,
	.score = score,
	.normalize = normalize,
};
