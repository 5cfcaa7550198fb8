/*
 * default_preemption.c — DefaultPreemption, the PostFilter (kube-scheduler-semantics.md §11;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/defaultpreemption/
 * default_preemption.go, pkg/scheduler/framework/preemption/preemption.go,
 * pkg/scheduler/util/utils.go).
 *
 * Runs when no node passed the filters:
 *  1. eligibility: preemptionPolicy Never never preempts;
 *  2. potential nodes: those whose filter status is Unschedulable (not
 *     UnschedulableAndUnresolvable); a seeded offset starts the dry run, which
 *     visits max(potential x minCandidateNodesPercentage, minCandidateNodesAbsolute)
 *     nodes (all of them below that) and keeps going until one candidate
 *     violates no PDB;
 *  3. per node (selectVictimsOnNode): remove every pod of strictly lower
 *     priority; if the pod then fits, put them back one by one — the
 *     PDB-violating ones first, each group most important first — keeping
 *     back every pod that still lets it fit; the rest are the victims;
 *  4. pickOneNodeForPreemption: fewest PDB violations, lowest highest-victim
 *     priority, smallest sum of priorities (each + 2^31), fewest victims,
 *     latest earliest start among the highest-priority victims, then the
 *     seeded hash (kube: map order).
 * The dry runs change the snapshot and always restore it.  PreFilter state is
 * recomputed from the changed snapshot (kube updates it through
 * AddPod/RemovePod; the result is the same).
 */
#include "../preemption.h"
#include "../static.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

/* MoreImportantPod: higher priority, then earlier start (no start = now), then id */

static int more_important(const kp_snap *s, int32_t a, int32_t b)
{
	const kp_pod *x = &s->pods[a], *y = &s->pods[b];
	int64_t px = s->classes[x->cls].priority, py = s->classes[y->cls].priority;
	if (px != py)
		return px > py;
	if (x->start_time != y->start_time)
		return x->start_time < y->start_time;
	return x->db_id < y->db_id;
}

static int cmp_importance(const void *a, const void *b, void *ctx)
{
	const kp_snap *order_snap = ctx;
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	if (x == y)
		return 0;
	return more_important(order_snap, x, y) ? -1 : 1;
}

int kp_pdb_matches(const kp_snap *s, const kp_pdb *d, const kp_pod *p)
{
	if (d->ns != p->ns || !p->labels.n || !d->sel.present || !d->sel.n)
		return 0;   /* a pod without labels or a PDB with an empty selector: no match */
	for (uint32_t k = 0; k < d->ndisrupted; k++)
		if (d->disrupted[k] == p->name)
			return 0;
	return kp_sel_match(&d->sel, &p->labels, &s->strs);
}

/* The pod's PreFilter + filters on this node, with the snapshot as it is now. */
static int fits(kp_cycle *cy, int node)
{
	int rc = kp_cycle_prefilter(cy);
	if (rc != KP_OK)
		return rc == KP_PREFILTER_FAIL ? 0 : rc;
	return kp_cycle_filter_node(cy, node);
}

int kp_pdb_violations(const kp_snap *s, const int64_t *allowed, int32_t *victims, int n, uint8_t *violating)
{
	int64_t *left = kp_malloc((size_t)(s->npdbs ? s->npdbs : 1) * sizeof *left);
	if (!left)
		return KP_NOMEM;
	memcpy(left, allowed, (size_t)s->npdbs * sizeof *left);
	for (int i = 0; i < n; i++) {
		violating[i] = 0;
		for (int k = 0; k < s->npdbs; k++)
			if (kp_pdb_matches(s, &s->pdbs[k], &s->pods[victims[i]]) && --left[k] < 0)
				violating[i] = 1;
	}
	kp_free(left);
	return KP_OK;
}

/* selectVictimsOnNode: 1 candidate (victims filled), 0 not a candidate
 * (reason recorded in cy for the node), < 0 error. */
static int select_victims(kp_cycle *cy, const int64_t *allowed, int node, kp_candidate *out)
{
	kp_snap *s = cy->s;
	int64_t prio = cy->c->priority;
	int32_t pi = cy->pi;
	int n = 0;
	/* no pod of lower priority on the node: no victims, without a scan */
	if (cy->min_prio_stamp[node] != (uint64_t)s->node_ver[node] + 1) {
		int64_t m = INT64_MAX;
		for (uint32_t j = 0; j < s->nnode_pods[node]; j++) {
			const kp_pod *v = &s->pods[s->node_pods[node][j]];
			if (!v->no_victim && s->classes[v->cls].priority < m)
				m = s->classes[v->cls].priority;
		}
		cy->min_prio[node] = m;
		cy->min_prio_stamp[node] = (uint64_t)s->node_ver[node] + 1;
	}
	if (cy->min_prio[node] >= prio) {
		memset(out, 0, sizeof *out);
		out->node = node;
		cy->fail[node] = -1;
		kp_cycle_fail(cy, node, KP_P_DEFAULT_PREEMPTION, cy->r_no_victims, 1);
		return 0;
	}
	int32_t *pot = kp_malloc((size_t)(s->nnode_pods[node] + 1) * sizeof *pot);
	uint8_t *viol = kp_malloc((size_t)s->nnode_pods[node] + 1);
	if (!pot || !viol) {
		kp_free(pot);
		kp_free(viol);
		return KP_NOMEM;
	}
	for (uint32_t j = 0; j < s->nnode_pods[node]; j++) {
		int32_t v = s->node_pods[node][j];
		if (s->classes[s->pods[v].cls].priority < prio && !s->pods[v].no_victim)
			pot[n++] = v;
	}
	memset(out, 0, sizeof *out);
	out->node = node;
	if (!n) {
		kp_free(pot);
		kp_free(viol);
		cy->fail[node] = -1;
		kp_cycle_fail(cy, node, KP_P_DEFAULT_PREEMPTION, cy->r_no_victims, 1);
		return 0;
	}
	for (int i = 0; i < n; i++)
		kp_snap_remove_pod(s, pot[i]);
	(void)pi;
	int rc = fits(cy, node);
	if (rc <= 0) {
		for (int i = 0; i < n; i++)
			if (kp_snap_add_pod(s, pot[i], node))
				rc = KP_NOMEM;
		kp_free(pot);
		kp_free(viol);
		return rc;   /* 0: the node's reasons stay in cy */
	}
	kp_sort(pot, (size_t)n, sizeof *pot, cmp_importance, (void *)s);
	if ((rc = kp_pdb_violations(s, allowed, pot, n, viol)) < 0) {
		for (int i = 0; i < n; i++)
			kp_snap_add_pod(s, pot[i], node);
		kp_free(pot);
		kp_free(viol);
		return rc;
	}
	out->victims = kp_malloc((size_t)n * sizeof *out->victims);
	out->violating = kp_malloc((size_t)n);
	if (!out->victims || !out->violating) {
		for (int i = 0; i < n; i++)
			kp_snap_add_pod(s, pot[i], node);
		kp_free(pot);
		kp_free(viol);
		return KP_NOMEM;
	}
	/* reprieve: violating ones first, then the others, each in importance order */
	int any_violating = 0, any_other = 0;
	for (int pass = 1; pass >= 0 && rc >= 0; pass--) {
		for (int i = 0; i < n; i++) {
			if (viol[i] != pass)
				continue;
			if (kp_snap_add_pod(s, pot[i], node)) {
				rc = KP_NOMEM;
				break;
			}
			int f = fits(cy, node);
			if (f < 0) {
				rc = f;
				break;
			}
			if (!f) {
				kp_snap_remove_pod(s, pot[i]);
				out->victims[out->nvictims] = pot[i];
				out->violating[out->nvictims++] = (uint8_t)pass;
				out->npdb_violations += pass;
				any_violating |= pass;
				any_other |= !pass;
			}
		}
	}
	/* the snapshot as it was: the victims go back */
	for (int i = 0; i < out->nvictims; i++)
		if (kp_snap_add_pod(s, out->victims[i], node))
			rc = KP_NOMEM;
	kp_free(pot);
	kp_free(viol);
	if (rc < 0)
		return rc;
	if (any_violating && any_other) {
		/* re-sort by importance, keeping each victim's violation flag */
		for (int i = 1; i < out->nvictims; i++)
			for (int j = i; j > 0 && more_important(s, out->victims[j], out->victims[j - 1]); j--) {
				int32_t t = out->victims[j];
				out->victims[j] = out->victims[j - 1];
				out->victims[j - 1] = t;
				uint8_t u = out->violating[j];
				out->violating[j] = out->violating[j - 1];
				out->violating[j - 1] = u;
			}
	}
	if (!out->nvictims) {
		/* fits with every pod back: kube would not have called preemption; be safe */
		kp_free(out->victims);
		kp_free(out->violating);
		out->victims = NULL;
		out->violating = NULL;
		return 0;
	}
	const kp_class *top = &s->classes[s->pods[out->victims[0]].cls];
	out->highest = top->priority;
	out->earliest = INT64_MAX;
	for (int i = 0; i < out->nvictims; i++) {
		const kp_pod *v = &s->pods[out->victims[i]];
		int64_t p = s->classes[v->cls].priority;
		out->sum += p + 2147483648LL;
		if (p == out->highest && v->start_time < out->earliest)
			out->earliest = v->start_time;
	}
	return 1;
}

/* pickOneNodeForPreemption (preemption.h) */
int kp_preempt_pick(const kp_candidate *c, int n, uint64_t seed, int64_t pod_id, const kp_snap *s)
{
	int best = 0;
	for (int i = 1; i < n; i++) {
		const kp_candidate *a = &c[i], *b = &c[best];
		int better;
		if (a->npdb_violations != b->npdb_violations)
			better = a->npdb_violations < b->npdb_violations;
		else if (a->highest != b->highest)
			better = a->highest < b->highest;
		else if (a->sum != b->sum)
			better = a->sum < b->sum;
		else if (a->nvictims != b->nvictims)
			better = a->nvictims < b->nvictims;
		else if (a->earliest != b->earliest)
			better = a->earliest > b->earliest;
		else {
			int64_t ka[2] = { pod_id, s->node_db_id[a->node] }, kb[2] = { pod_id, s->node_db_id[b->node] };
			better = kp_hash64(ka, sizeof ka, seed ^ 0x70726565ULL) > kp_hash64(kb, sizeof kb, seed ^ 0x70726565ULL);
		}
		if (better)
			best = i;
	}
	return best;
}


/* "0/N nodes are available: <histogram>." over the nodes' preemption verdicts */
static char *histogram(kp_cycle *cy)
{
	kp_snap *s = cy->s;
	int32_t *counts = kp_calloc((size_t)(s->nreasons ? s->nreasons : 1), sizeof *counts);
	if (!counts)
		return NULL;
	for (int n = 0; n < s->nnodes; n++)
		if (cy->fail[n] >= 0)
			for (int k = 0; k < cy->rcount[n]; k++)
				counts[cy->rbuf[cy->rstart[n] + k]]++;
	int m = 0;
	char **items = kp_malloc((size_t)(s->nreasons ? s->nreasons : 1) * sizeof *items);
	kp_sb sb;
	kp_sb_init(&sb);
	if (items) {
		for (int r = 0; r < s->nreasons; r++)
			if (counts[r]) {
				kp_sb tmp;
				kp_sb_init(&tmp);
				kp_sb_printf(&tmp, "%d %s", counts[r], s->reasons[r].msg);
				items[m++] = tmp.buf;
			}
		kp_sort(items, (size_t)m, sizeof *items, kp_cmp_str, NULL);
		kp_sb_printf(&sb, "0/%d nodes are available: ", kp_snap_nlive(s));
		for (int i = 0; i < m; i++) {
			kp_sb_adds(&sb, i ? ", " : "");
			kp_sb_adds(&sb, items[i] ? items[i] : "");
			kp_free(items[i]);
		}
		kp_sb_addc(&sb, '.');
	}
	kp_free(items);
	kp_free(counts);
	if (!items || !kp_sb_ok(&sb)) {
		kp_sb_release(&sb);
		return NULL;
	}
	return sb.buf;
}

void kp_preempt_release(kp_preempt_result *r)
{
	for (int i = 0; i < r->ncands; i++) {
		kp_free(r->cands[i].victims);
		kp_free(r->cands[i].violating);
	}
	kp_free(r->cands);
	kp_free(r->message);
	memset(r, 0, sizeof *r);
	r->chosen = -1;
}

int kp_preempt(kp_cycle *cy, const int64_t *allowed, kp_preempt_result *out)
{
	kp_snap *s = cy->s;
	const kp_profile *pf = cy->pf;
	memset(out, 0, sizeof *out);
	out->chosen = -1;
	if (cy->c->preempt_never) {
		out->message = kp_strdup("not eligible due to preemptionPolicy=Never.");
		return out->message ? KP_OK : KP_NOMEM;
	}
	/* PodEligibleToPreemptOthers: a pod nominated to a node (an earlier
	 * preemption, status.nominatedNodeName) whose status is not unresolvable
	 * waits while a lower-priority pod there is still terminating */
	if (cy->p->nominated >= 0) {
		for (int n = 0; n < s->nnodes; n++) {
			if (s->node_name[n] != cy->p->nominated || (cy->fail[n] >= 0 && cy->unres[n]))
				continue;
			for (uint32_t j = 0; j < s->nnode_pods[n]; j++) {
				const kp_pod *v = &s->pods[s->node_pods[n][j]];
				if (v->terminating && s->classes[v->cls].priority < cy->c->priority) {
					out->message = kp_strdup("not eligible due to a terminating pod on the nominated node.");
					return out->message ? KP_OK : KP_NOMEM;
				}
			}
		}
	}
	/* the filter verdicts decide the potential nodes; keep them, the dry runs overwrite cy */
	int nn = s->nnodes;
	int32_t *pot = kp_malloc((size_t)(nn ? nn : 1) * sizeof *pot);
	uint8_t *unres = kp_malloc((size_t)(nn ? nn : 1));
	if (!pot || !unres) {
		kp_free(pot);
		kp_free(unres);
		return KP_NOMEM;
	}
	int npot = 0;
	for (int n = 0; n < nn; n++) {
		unres[n] = cy->fail[n] >= 0 && cy->unres[n];
		if (cy->fail[n] >= 0 && !cy->unres[n])
			pot[npot++] = n;
	}
	/* verdicts for the preemption message start from scratch */
	cy->rlen = 0;
	for (int n = 0; n < nn; n++) {
		cy->fail[n] = -1;
		if (unres[n])
			kp_cycle_fail(cy, n, KP_P_DEFAULT_PREEMPTION, cy->r_not_helpful, 1);
	}
	int rc = KP_OK;
	if (npot) {
		int64_t want = (int64_t)npot * pf->min_candidate_pct / 100;
		if (want < pf->min_candidate_abs)
			want = pf->min_candidate_abs;
		if (want > npot)
			want = npot;
		int64_t key[1] = { cy->p->db_id };
		int offset = (int)(kp_hash64(key, sizeof key, cy->seed ^ 0x6f6666ULL) % (uint64_t)npot);
		out->cands = kp_calloc((size_t)npot, sizeof *out->cands);
		if (!out->cands)
			rc = KP_NOMEM;
		int non_violating = 0;
		for (int i = 0; i < npot && rc >= 0; i++) {
			if (out->ncands >= want && non_violating)
				break;
			int node = pot[(offset + i) % npot];
			int r = select_victims(cy, allowed, node, &out->cands[out->ncands]);
			if (r < 0)
				rc = r;
			else if (r == 1) {
				non_violating |= out->cands[out->ncands].npdb_violations == 0;
				out->ncands++;
			}
		}
	}
	/* PreFilter state belongs to the snapshot as restored */
	if (rc >= 0 && npot) {
		int r = kp_cycle_prefilter(cy);
		if (r < 0)
			rc = r;
	}
	kp_free(pot);
	kp_free(unres);
	if (rc < 0)
		return rc;
	if (!out->ncands) {
		out->message = histogram(cy);
		return out->message ? KP_OK : KP_NOMEM;
	}
	out->chosen = kp_preempt_pick(out->cands, out->ncands, cy->seed, cy->p->db_id, s);
	return KP_OK;
}

/* PostFilter only: the plan loop calls it when no node passed the filters */
const kp_plugin kp_plugin_default_preemption = {
	.name = "DefaultPreemption",
	.post_filter = kp_preempt,
};
