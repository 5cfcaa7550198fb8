/*
 * rebalance_strategies.c — the seven strategies of kubernetes-sigs/descheduler
 * (kp_rb_strategy, in the order a run applies them): which pods each proposes
 * to move, in which order, which nodes they may not land on, and each move's
 * gain and detail.  Contract: a strategy only proposes; kp_rb_try_move
 * decides (evictor rules, limits, a home found by the planner).  KP_OK, or
 * < 0 / an error code with rb->err set.
 */
#include "rebalance_int.h"
#include "preemption.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- violation checks ---- */

/* nodeSelector and required node affinity hold on node n */
static int affinity_ok(const kp_snap *s, const kp_class *c, int n)
{
	for (uint32_t i = 0; i < c->nnsel; i++)
		if (kp_labels_get(&s->node_labels[n], c->nsel[i].key) != c->nsel[i].value)
			return 0;
	return !c->nrequired || kp_nterms_any(s, c->required, c->nrequired, n);
}

static int tolerated(const kp_class *c, const kp_taint *x)
{
	for (uint32_t i = 0; i < c->ntols; i++)
		if (kp_tolerates(&c->tols[i], x))
			return 1;
	return 0;
}

static int taint_excluded(const kp_rebalance *rb, const kp_snap *s, const kp_taint *x)
{
	for (int i = 0; i < rb->nexcluded_taints; i++) {
		const char *e = rb->excluded_taints[i], *eq = strchr(e, '=');
		const char *k = kp_str(&s->strs, x->key), *v = kp_str(&s->strs, x->value);
		if (eq ? (strlen(k) == (size_t)(eq - e) && !strncmp(k, e, (size_t)(eq - e)) && !strcmp(eq + 1, v)) : !strcmp(k, e))
			return 1;
	}
	return 0;
}

/* the node passes the static filters a pod of c would meet (for fair shares and spread domains) */
static int node_fits_statically(const kp_snap *s, const kp_class *c, int n)
{
	if (s->unschedulable[n] || !affinity_ok(s, c, n))
		return 0;
	for (uint32_t t = 0; t < s->ntaints[n]; t++) {
		const kp_taint *x = &s->taints[n][t];
		if ((x->effect == KP_EFFECT_NOSCHEDULE || x->effect == KP_EFFECT_NOEXECUTE) && !tolerated(c, x))
			return 0;
	}
	return 1;
}

/* Visit every pod of every node, node by node, in sorted_pods_on's order;
 * visit returns < 0 to stop on an error. */
static int each_pod(kp_rebalance *rb, int (*visit)(kp_rebalance *rb, int n, int32_t pod))
{
	kp_snap *s = rb->h->s;
	for (int n = 0; n < s->nnodes; n++) {
		int np;
		int32_t *pods = kp_rb_sorted_pods_on(s, n, &np);
		if (!pods)
			return kp_rb_nomem(rb);
		for (int i = 0; i < np; i++)
			if (visit(rb, n, pods[i]) < 0) {
				kp_free(pods);
				return -1;
			}
		kp_free(pods);
	}
	return KP_OK;
}

/* RemovePodsViolatingNodeTaints: the pod's first untolerated taint */
static int visit_taints(kp_rebalance *rb, int n, int32_t pod)
{
	kp_snap *s = rb->h->s;
	const kp_class *c = kp_rb_cls(s, pod);
	for (uint32_t t = 0; t < s->ntaints[n]; t++) {
		const kp_taint *x = &s->taints[n][t];
		if (!(x->effect == KP_EFFECT_NOSCHEDULE || (rb->taints_prefer && x->effect == KP_EFFECT_PREFER)) ||
		    tolerated(c, x) || taint_excluded(rb, s, x))
			continue;
		char d[1200];
		snprintf(d, sizeof d, "violation fixed: untolerated taint %s%s%s:%s on %s", kp_str(&s->strs, x->key),
			 x->value >= 0 ? "=" : "", kp_str(&s->strs, x->value),
			 x->effect == KP_EFFECT_PREFER ? "PreferNoSchedule" : "NoSchedule", kp_str(&s->strs, s->node_name[n]));
		return kp_rb_try_move(rb, pod, NULL, S_TAINTS, 1, d) < 0 ? -1 : KP_OK;
	}
	return KP_OK;
}

static int strat_taints(kp_rebalance *rb) { return each_pod(rb, visit_taints); }

/* RemovePodsViolatingNodeAffinity */
static int visit_affinity(kp_rebalance *rb, int n, int32_t pod)
{
	kp_snap *s = rb->h->s;
	if (affinity_ok(s, kp_rb_cls(s, pod), n))
		return KP_OK;
	char d[600];
	snprintf(d, sizeof d, "violation fixed: required node affinity no longer satisfied on %s",
		 kp_str(&s->strs, s->node_name[n]));
	return kp_rb_try_move(rb, pod, NULL, S_AFFINITY, 1, d) < 0 ? -1 : KP_OK;
}

static int strat_affinity(kp_rebalance *rb) { return each_pod(rb, visit_affinity); }

/* a pod in pi's topology domain that pi's required anti-affinity selects; -1 none */
static int32_t anti_violator(kp_snap *s, int32_t pi)
{
	const kp_pod *p = &s->pods[pi];
	const kp_class *c = &s->classes[p->cls];
	for (uint32_t t = 0; t < c->npterms; t++) {
		const kp_pterm *pt = &c->pterms[t];
		if (!pt->anti || !pt->required)
			continue;
		const kp_topo *tp = kp_snap_topo(s, pt->topo);
		kp_sid v = tp ? tp->val[p->node] : kp_labels_get(&s->node_labels[p->node], pt->topo);
		if (v < 0)
			continue;
		for (int n = 0; n < s->nnodes; n++) {
			if ((tp ? tp->val[n] : kp_labels_get(&s->node_labels[n], pt->topo)) != v)
				continue;
			for (uint32_t k = 0; k < s->nnode_pods[n]; k++) {
				int32_t q = s->node_pods[n][k];
				if (q != pi && !s->pods[q].terminating && kp_term_matches(s, pt, p, &s->pods[q]))
					return q;
			}
		}
	}
	return -1;
}

/* RemovePodsViolatingInterPodAntiAffinity */
static int visit_anti(kp_rebalance *rb, int n, int32_t pod)
{
	kp_snap *s = rb->h->s;
	if (!kp_rb_cls(s, pod)->has_req_anti || s->pods[pod].node != n)
		return KP_OK;
	int32_t q = anti_violator(s, pod);
	if (q < 0)
		return KP_OK;
	char d[800];
	snprintf(d, sizeof d, "violation fixed: required pod anti-affinity with %s/%s on %s",
		 kp_str(&s->strs, s->pods[q].ns), kp_str(&s->strs, s->pods[q].name), kp_str(&s->strs, s->node_name[n]));
	return kp_rb_try_move(rb, pod, NULL, S_ANTI, 1, d) < 0 ? -1 : KP_OK;
}

static int strat_anti(kp_rebalance *rb) { return each_pod(rb, visit_anti); }

/* ---- RemoveDuplicates ---- */

static int same_owner(const kp_pod *a, const kp_pod *b)
{
	return a->ns == b->ns && a->owner_kind == b->owner_kind && a->owner_name == b->owner_name;
}

/* by owner (namespace, kind, name), then import order */
static int cmp_owner(const void *a, const void *b, void *ctx)
{
	const kp_snap *cmp_s = ctx;
	const kp_pod *x = &cmp_s->pods[*(const int32_t *)a], *y = &cmp_s->pods[*(const int32_t *)b];
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->owner_kind != y->owner_kind)
		return x->owner_kind < y->owner_kind ? -1 : 1;
	if (x->owner_name != y->owner_name)
		return x->owner_name < y->owner_name ? -1 : 1;
	return (*(const int32_t *)a > *(const int32_t *)b) - (*(const int32_t *)a < *(const int32_t *)b);
}

static int strat_dups(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int32_t *order = kp_malloc((size_t)(s->npods ? s->npods : 1) * sizeof *order);
	int32_t *cnt = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), sizeof *cnt);
	uint8_t *full = kp_calloc((size_t)(s->nnodes ? s->nnodes : 1), 1);
	int rc = order && cnt && full ? KP_OK : kp_rb_nomem(rb);
	int no = 0;
	for (int i = 0; !rc && i < s->npods; i++)
		if (s->pods[i].node >= 0 && s->pods[i].owner_kind >= 0 && !kp_snap_pod_per_node(s, &s->pods[i]))
			order[no++] = i;
	if (!rc)
		kp_sort(order, (size_t)no, sizeof *order, cmp_owner, (void *)s);
	for (int a = 0, b = 0; !rc && a < no; a = b) {
		const kp_pod *p = &s->pods[order[a]];
		for (b = a; b < no && same_owner(p, &s->pods[order[b]]); b++)
			;
		int excluded = 0;
		for (int k = 0; k < rb->ndup_exclude; k++)
			excluded |= !strcmp(rb->dup_exclude_kinds[k], kp_str(&s->strs, p->owner_kind));
		int total = b - a;
		if (excluded || total < 2)
			continue;
		for (int k = a; k < b; k++)
			cnt[s->pods[order[k]].node]++;
		/* descheduler: at most ceil(pods / nodes the pods could run on) per node */
		int targets = 0;
		for (int n = 0; n < s->nnodes; n++)
			targets += node_fits_statically(s, &s->classes[p->cls], n);
		int upper = targets < 2 ? total : (total + targets - 1) / targets;   /* one node: nowhere to spread */
		for (int n = 0; n < s->nnodes && !rc; n++) {
			if (cnt[n] <= upper)
				continue;
			int np;
			int32_t *pods = kp_rb_sorted_pods_on(s, n, &np);
			if (!pods) {
				rc = kp_rb_nomem(rb);
				break;
			}
			for (int k = 0; k < np && cnt[n] > upper && !rc; k++) {
				if (!same_owner(p, &s->pods[pods[k]]))
					continue;
				for (int m = 0; m < s->nnodes; m++)
					full[m] = (uint8_t)(cnt[m] >= upper);
				char d[1200];
				snprintf(d, sizeof d, "duplicate spread: %d pods of %s %s/%s on %s, at most %d per node",
					 cnt[n], kp_str(&s->strs, p->owner_kind), kp_str(&s->strs, p->ns),
					 kp_str(&s->strs, p->owner_name), kp_str(&s->strs, s->node_name[n]), upper);
				int m = kp_rb_try_move(rb, pods[k], full, S_DUPS, 1, d);
				if (m < 0)
					rc = -1;
				else if (m) {
					cnt[n]--;
					cnt[rb->moves[rb->nmoves - 1].to]++;
				}
			}
			kp_free(pods);
		}
		/* the group's pods are on every node its counts touched */
		for (int k = a; k < b; k++)
			cnt[s->pods[order[k]].node] = 0;
	}
	kp_free(order);
	kp_free(cnt);
	kp_free(full);
	return rc;
}

/* ---- RemovePodsViolatingTopologySpreadConstraint ---- */

/* the domain counts of one spread constraint of class c: per node the domain
 * (-1 not counted), per domain the matching pods */
static void spread_counts(const kp_snap *s, const kp_class *c, const kp_spread *sp, int32_t *dom, int64_t *count,
			  kp_sid *vals, int *ndom)
{
	*ndom = 0;
	for (int n = 0; n < s->nnodes; n++) {
		dom[n] = -1;
		kp_sid v = kp_labels_get(&s->node_labels[n], sp->topo);
		if (v < 0 || (sp->honor_affinity && !affinity_ok(s, c, n)))
			continue;
		if (sp->honor_taints) {
			int ok = 1;
			for (uint32_t t = 0; t < s->ntaints[n]; t++) {
				const kp_taint *x = &s->taints[n][t];
				if ((x->effect == KP_EFFECT_NOSCHEDULE || x->effect == KP_EFFECT_NOEXECUTE) && !tolerated(c, x))
					ok = 0;
			}
			if (!ok)
				continue;
		}
		int d = -1;
		for (int k = 0; k < *ndom && d < 0; k++)
			if (vals[k] == v)
				d = k;
		if (d < 0) {
			d = (*ndom)++;
			vals[d] = v;
			count[d] = 0;
		}
		dom[n] = d;
		for (uint32_t k = 0; k < s->nnode_pods[n]; k++) {
			const kp_pod *o = &s->pods[s->node_pods[n][k]];
			if (o->ns == c->ns && !o->terminating && kp_sel_match(&sp->sel, &o->labels, &s->strs))
				count[d]++;
		}
	}
}

static int strat_spread(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int nn = s->nnodes ? s->nnodes : 1;
	int32_t *dom = kp_malloc((size_t)nn * sizeof *dom);
	int64_t *count = kp_malloc((size_t)nn * sizeof *count);
	kp_sid *vals = kp_malloc((size_t)nn * sizeof *vals);
	uint8_t *avoid = kp_malloc((size_t)nn);
	int rc = dom && count && vals && avoid ? KP_OK : kp_rb_nomem(rb);
	for (int ci = 0; ci < s->nclasses && !rc; ci++) {
		const kp_class *c = &s->classes[ci];
		for (uint32_t k = 0; k < c->nspreads && !rc; k++) {
			const kp_spread *sp = &c->spreads[k];
			if (!sp->hard && !rb->spread_soft)
				continue;
			for (int guard = 0; guard < s->npods && !rc; guard++) {
				int ndom;
				spread_counts(s, c, sp, dom, count, vals, &ndom);
				if (ndom < 1)
					break;
				int64_t mx = count[0], mn = count[0];
				int dmax = 0;
				for (int d = 1; d < ndom; d++) {
					if (count[d] > mx)
						mx = count[d], dmax = d;
					if (count[d] < mn)
						mn = count[d];
				}
				if (sp->min_domains > ndom)
					mn = 0;
				if (mx - mn <= sp->max_skew)
					break;
				/* a pod of this class in the fullest domain, to any other domain */
				for (int n = 0; n < s->nnodes; n++)
					avoid[n] = (uint8_t)(dom[n] == dmax);
				int moved = 0;
				for (int n = 0; n < s->nnodes && !moved && !rc; n++) {
					if (dom[n] != dmax)
						continue;
					int np;
					int32_t *pods = kp_rb_sorted_pods_on(s, n, &np);
					if (!pods) {
						rc = kp_rb_nomem(rb);
						break;
					}
					for (int i = 0; i < np && !moved; i++) {
						const kp_pod *p = &s->pods[pods[i]];
						if (p->cls != ci || !kp_sel_match(&sp->sel, &p->labels, &s->strs))
							continue;
						char d[1000];
						snprintf(d, sizeof d, "violation fixed: topology spread on %s: skew %lld > maxSkew %lld "
								      "(%s=%s has %lld)", kp_str(&s->strs, sp->topo),
							 (long long)(mx - mn), (long long)sp->max_skew, kp_str(&s->strs, sp->topo),
							 kp_str(&s->strs, vals[dmax]), (long long)mx);
						int m = kp_rb_try_move(rb, pods[i], avoid, S_SPREAD, 1, d);
						if (m < 0)
							rc = -1;
						moved = m > 0;
					}
					kp_free(pods);
				}
				if (!moved)
					break;
			}
		}
	}
	kp_free(dom);
	kp_free(count);
	kp_free(vals);
	kp_free(avoid);
	return rc;
}

/* ---- LowNodeUtilization, HighNodeUtilization ---- */

static int under(const kp_snap *s, int n, const double *thr)
{
	if (s->unschedulable[n])
		return 0;
	for (int r = 0; r < R_COUNT; r++)
		if (kp_rb_util(s, n, r) >= thr[r] && thr[r] < 100)
			return 0;
	return 1;
}

static int over(const kp_snap *s, int n, const double *target)
{
	for (int r = 0; r < R_COUNT; r++)
		if (target[r] < 100 && kp_rb_util(s, n, r) > target[r])
			return 1;
	return 0;
}

/* highest utilisation over the resources above target */
static double excess(const kp_snap *s, int n, const double *target, int *res)
{
	double best = 0;
	*res = R_CPU;
	for (int r = 0; r < R_COUNT; r++)
		if (target[r] < 100 && kp_rb_util(s, n, r) - target[r] > best) {
			best = kp_rb_util(s, n, r) - target[r];
			*res = r;
		}
	return best;
}

static int cmp_load_desc(const void *a, const void *b, void *ctx)
{
	const kp_snap *load_s = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	double lx = 0, ly = 0;
	for (int r = 0; r < R_COUNT; r++) {
		lx += kp_rb_util(load_s, x, r);
		ly += kp_rb_util(load_s, y, r);
	}
	if (lx != ly)
		return lx > ly ? -1 : 1;
	return (x > y) - (x < y);
}

static int strat_low(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int nn = s->nnodes ? s->nnodes : 1;
	int nunder = 0, nover = 0;
	int *src = kp_malloc((size_t)nn * sizeof *src);
	uint8_t *avoid = kp_malloc((size_t)nn);
	if (!src || !avoid) {
		kp_free(src);
		kp_free(avoid);
		return kp_rb_nomem(rb);
	}
	for (int n = 0; n < s->nnodes; n++) {
		nunder += under(s, n, rb->low_thr);
		if (over(s, n, rb->low_target))
			src[nover++] = n;
	}
	int rc = KP_OK;
	if (nunder == 0 || nunder <= rb->low_nodes || nover == 0)
		goto out;
	kp_sort(src, (size_t)nover, sizeof *src, cmp_load_desc, (void *)s);
	for (int i = 0; i < nover && !rc; i++) {
		int n = src[i], np;
		int32_t *pods = kp_rb_sorted_pods_on(s, n, &np);
		if (!pods) {
			rc = kp_rb_nomem(rb);
			break;
		}
		for (int k = 0; k < np && !rc && over(s, n, rb->low_target); k++) {
			for (int m = 0; m < s->nnodes; m++)
				avoid[m] = (uint8_t)over(s, m, rb->low_target);
			int res;
			excess(s, n, rb->low_target, &res);
			double before = kp_rb_util(s, n, res);
			char d[600];
			snprintf(d, sizeof d, "utilisation: %s above targetThresholds", kp_str(&s->strs, s->node_name[n]));
			int mv = kp_rb_try_move(rb, pods[k], avoid, S_LOW, 0, d);
			if (mv < 0) {
				rc = -1;
				break;
			}
			if (!mv)
				continue;
			move *m = &rb->moves[rb->nmoves - 1];
			if (over(s, m->to, rb->low_target)) {   /* it would only move the problem */
				if (kp_rb_drop_move(rb))
					rc = -1;
				continue;
			}
			m->gain = round((before - kp_rb_util(s, n, res)) * 10) / 10;
			snprintf(d, sizeof d, "utilisation: %s %s %.1f%% -> %.1f%% (targetThresholds %g%%)",
				 kp_str(&s->strs, s->node_name[n]), kp_rb_rnames[res], before, kp_rb_util(s, n, res), rb->low_target[res]);
			kp_free(m->detail);
			if (!(m->detail = kp_strdup(d)))
				rc = kp_rb_nomem(rb);
		}
		kp_free(pods);
	}
out:
	kp_free(src);
	kp_free(avoid);
	return rc;
}

static int cmp_load_asc(const void *a, const void *b, void *ctx) { return -cmp_load_desc(a, b, ctx); }

static int strat_high(kp_rebalance *rb)
{
	kp_snap *s = rb->h->s;
	int nn = s->nnodes ? s->nnodes : 1;
	int *cand = kp_malloc((size_t)nn * sizeof *cand);
	uint8_t *avoid = kp_calloc((size_t)nn, 1);
	int ncand = 0, rc = KP_OK;
	if (!cand || !avoid) {
		kp_free(cand);
		kp_free(avoid);
		return kp_rb_nomem(rb);
	}
	/* nothing lands on a node emptied or still to be emptied; a candidate
	 * that could not be emptied takes pods from the later ones */
	for (int n = 0; n < s->nnodes; n++)
		if (under(s, n, rb->high_thr)) {
			avoid[n] = 1;
			if (kp_rb_app_pods(s, n))
				cand[ncand++] = n;
		}
	if (ncand <= rb->high_nodes)
		goto out;
	kp_sort(cand, (size_t)ncand, sizeof *cand, cmp_load_asc, (void *)s);
	for (int i = 0; i < ncand && !rc; i++) {
		int n = cand[i], np, k = kp_rb_app_pods(s, n), ok = 1;
		int32_t *pods = kp_rb_sorted_pods_on(s, n, &np);
		if (!pods) {
			rc = kp_rb_nomem(rb);
			break;
		}
		int first = rb->nmoves;
		char d[600];
		snprintf(d, sizeof d, "node freed: %s (%d pod%s moved off, below thresholds)", kp_str(&s->strs, s->node_name[n]),
			 k, k == 1 ? "" : "s");
		for (int j = 0; j < np && ok; j++) {
			if (kp_snap_pod_per_node(s, &s->pods[pods[j]]))
				continue;
			int m = kp_rb_try_move(rb, pods[j], avoid, S_HIGH, 1.0 / k, d);
			if (m < 0)
				rc = -1;
			ok = m > 0;
		}
		/* all or nothing: a node half emptied frees nothing */
		while (!ok && !rc && rb->nmoves > first)
			if (kp_rb_drop_move(rb))
				rc = -1;
		if (!ok)
			avoid[n] = 0;
		kp_free(pods);
	}
out:
	kp_free(cand);
	kp_free(avoid);
	return rc;
}

int (*const kp_rb_strategy[S_COUNT])(kp_rebalance *rb) = {
	[S_TAINTS] = strat_taints, [S_AFFINITY] = strat_affinity, [S_ANTI] = strat_anti, [S_DUPS] = strat_dups,
	[S_SPREAD] = strat_spread, [S_LOW] = strat_low, [S_HIGH] = strat_high,
};
