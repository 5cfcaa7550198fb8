/*
 * inter_pod_affinity.c — InterPodAffinity (kube-scheduler-semantics.md §5.8, §7.9;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/interpodaffinity/
 * {plugin,filtering,scoring}.go).
 *
 * PreFilter counts, per topology pair (key, value):
 *  - existing anti: required anti-affinity terms of placed pods that match
 *    the incoming pod, at their node's value;
 *  - affinity: placed pods matching ALL the incoming pod's required affinity
 *    terms, per term's pair;
 *  - anti: placed pods matching each required anti-affinity term.
 * Filter, in kube's order: required affinity ("node(s) didn't match pod
 * affinity rules", Unresolvable; the first pod of a group that matches its
 * own terms may go anywhere carrying the keys while nothing matches
 * anywhere), required anti-affinity ("... pod anti-affinity rules"), and
 * existing pods' anti-affinity ("node(s) didn't satisfy existing pods
 * anti-affinity rules"), both Unschedulable.
 * Score: preferred terms both ways and existing pods' required affinity
 * (hardPodAffinityWeight), summed per pair; a node scores the pairs of its
 * labels; normalised min..max to 0..100.
 */
#include "../cycle.h"

#include <string.h>

static int node_value(const kp_snap *s, int node, kp_sid key) { return kp_labels_get(&s->node_labels[node], key); }

/* a term kp_counter can count: labels only, in the owner's namespace */
static int counter_term(const kp_pterm *t) { return !t->nns && !t->ns_sel.present && !t->nmlk && !t->nmmlk; }

/* counts[(topo, value)] += the counter's pods on every node with that value
 * (its nodes with some, ascending, as a loop over every node would add them) */
static int add_counts(kp_cycle *cy, kp_dmap *counts, int cid, kp_sid topo)
{
	const kp_topo *tp = kp_snap_topo(cy->s, topo);
	if (!tp)
		return KP_NOMEM;
	const kp_counter *c = kp_snap_counter(cy->s, cid);
	kp_counter_it it;
	for (int ok = kp_counter_first(c, &it); ok; ok = kp_counter_next(c, &it)) {
		if (tp->val[it.node] < 0)
			continue;
		int64_t *x = kp_dmap_put(counts, kp_pair_key(topo, tp->val[it.node]));
		if (!x)
			return KP_NOMEM;
		*x += it.count;
	}
	return KP_OK;
}

typedef struct kp_agroup {
	int32_t cls;
	kp_sid ns;
	int32_t *pods;
	int npods, cap;
	uint32_t stamp;          /* cy->agroup_stamp when last evaluated */
} kp_agroup;

/* the first valid In requirement of a selector (what a matching pod must carry) */
static const kp_sreq *trigger_req(const kp_sel *sel)
{
	for (uint32_t i = 0; i < sel->n; i++)
		if (sel->reqs[i].op == KP_OP_IN && sel->reqs[i].nvals && !sel->reqs[i].invalid)
			return &sel->reqs[i];
	return NULL;
}

static int grow_i32(int32_t **v, int *cap, int need)
{
	if (need <= *cap)
		return KP_OK;
	int c = *cap ? *cap * 2 : 16;
	while (c < need)
		c *= 2;
	int32_t *nv = kp_realloc(*v, (size_t)c * sizeof *nv);
	if (!nv)
		return KP_NOMEM;
	*v = nv;
	*cap = c;
	return KP_OK;
}


int kp_ipa_add_pod(kp_cycle *cy, int32_t pi)
{
	const kp_pod *p = &cy->s->pods[pi];
	const kp_class *c = &cy->s->classes[p->cls];
	int64_t key = kp_pair_key(p->cls, p->ns);
	int64_t *gi = kp_dmap_get(&cy->agroup_index, key);
	if (!gi) {
		if (!(gi = kp_dmap_put(&cy->agroup_index, key)))
			return KP_NOMEM;
		if (KP_GROW(cy->agroups, cy->nagroups, cy->cap_agroups, 16))
			return KP_NOMEM;
		int32_t g = cy->nagroups++;
		cy->agroups[g] = (kp_agroup){ p->cls, p->ns, NULL, 0, 0, 0 };
		*gi = g;
		/* found through each term's required (key, value)s; a term without
		 * one can select any pod */
		int always = 0;
		for (uint32_t k = 0; k < c->npterms && !always; k++)
			if (c->pterms[k].required && c->pterms[k].anti && !trigger_req(&c->pterms[k].sel))
				always = 1;
		if (always) {
			if (grow_i32(&cy->agroup_always, &cy->cap_agroup_always, cy->nagroup_always + 1))
				return KP_NOMEM;
			cy->agroup_always[cy->nagroup_always++] = g;
		} else {
			for (uint32_t k = 0; k < c->npterms; k++) {
				const kp_pterm *t = &c->pterms[k];
				if (!t->required || !t->anti)
					continue;
				const kp_sreq *r = trigger_req(&t->sel);
				for (uint32_t v = 0; v < r->nvals; v++)
					if (kp_multimap_add(&cy->agroup_trig, kp_pair_key(r->key, r->vals[v]), g))
						return KP_NOMEM;
			}
		}
	}
	kp_agroup *g = &cy->agroups[*gi];
	if (grow_i32(&g->pods, &g->cap, g->npods + 1))
		return KP_NOMEM;
	g->pods[g->npods++] = pi;
	return KP_OK;
}

void kp_ipa_release(kp_cycle *cy)
{
	for (int g = 0; g < cy->nagroups; g++)
		kp_free(cy->agroups[g].pods);
	kp_free(cy->agroups);
	kp_free(cy->agroup_always);
	kp_dmap_release(&cy->agroup_index);
	kp_multimap_release(&cy->agroup_trig);
}

/* One group against the incoming pod, once per cycle: which of the class's
 * required anti-affinity terms select it (the namespace part is the same
 * for every pod of the group; terms with matchLabelKeys or
 * mismatchLabelKeys read each owner's labels), then the placed pods count
 * at their node's value. */
static int existing_group(kp_cycle *cy, int32_t gi)
{
	kp_agroup *g = &cy->agroups[gi];
	if (g->stamp == cy->agroup_stamp)
		return KP_OK;
	g->stamp = cy->agroup_stamp;
	const kp_snap *s = cy->s;
	const kp_class *ec = &s->classes[g->cls];
	for (uint32_t k = 0; k < ec->npterms; k++) {
		const kp_pterm *t = &ec->pterms[k];
		if (!t->required || !t->anti)
			continue;
		int per_pod = t->nmlk || t->nmmlk, matched = -1;
		for (int i = 0; i < g->npods; i++) {
			const kp_pod *e = &s->pods[g->pods[i]];
			if (e->node < 0)
				continue;
			if (per_pod || matched < 0) {
				matched = kp_term_matches(s, t, e, cy->p);
			}
			if (!matched) {
				if (per_pod)
					continue;
				break;
			}
			kp_sid v = node_value(s, e->node, t->topo);
			if (v < 0)
				continue;
			int64_t *x = kp_dmap_put(&cy->existing_anti, kp_pair_key(t->topo, v));
			if (!x)
				return KP_NOMEM;
			(*x)++;
		}
	}
	return KP_OK;
}

static int pre_filter(kp_cycle *cy)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	kp_dmap_clear(&cy->aff_counts);
	kp_dmap_clear(&cy->anti_counts);
	kp_dmap_clear(&cy->existing_anti);
	if (!c->has_req_aff && !c->has_req_anti && !cy->nanti_pods)
		return KP_SKIP;
	/* existing pods' required anti-affinity against this pod: only the
	 * groups whose terms can select the pod's labels */
	if (cy->nagroups && ++cy->agroup_stamp == 0) {
		for (int g = 0; g < cy->nagroups; g++)
			cy->agroups[g].stamp = 0;
		cy->agroup_stamp = 1;
	}
	for (uint32_t i = 0; i < cy->p->labels.n && cy->nagroups; i++) {
		int64_t key = kp_pair_key(cy->p->labels.v[i].key, cy->p->labels.v[i].value);
		for (int32_t ch = kp_multimap_first(&cy->agroup_trig, key); ch >= 0; ch = cy->agroup_trig.next[ch])
			if (existing_group(cy, cy->agroup_trig.val[ch]))
				return KP_NOMEM;
	}
	for (int i = 0; i < cy->nagroup_always; i++)
		if (existing_group(cy, cy->agroup_always[i]))
			return KP_NOMEM;
	/* no required term of its own and no placed pod's anti-affinity
	 * against it: the filter passes every node */
	if (!c->has_req_aff && !c->has_req_anti && !cy->existing_anti.n)
		return KP_SKIP;
	cy->self_matches_all = 1;
	for (uint32_t k = 0; k < c->npterms; k++)
		if (c->pterms[k].required && !c->pterms[k].anti && !kp_term_matches(s, &c->pterms[k], cy->p, cy->p))
			cy->self_matches_all = 0;
	/* the pod's own required terms against the placed pods: from the
	 * incremental counters when a term selects by labels in the pod's own
	 * namespace (the usual case), else by a scan over every placed pod */
	int aff_counted = c->has_req_aff, anti_counted = c->has_req_anti;
	for (uint32_t k = 0; k < c->npterms; k++) {
		const kp_pterm *t = &c->pterms[k];
		if (t->required && !counter_term(t)) {
			if (t->anti)
				anti_counted = 0;
			else
				aff_counted = 0;
		}
	}
	if (aff_counted) {
		/* pods matching ALL required affinity terms: one counter on the
		 * conjunction of their selectors */
		uint32_t nreq = 0;
		int null_sel = 0;
		for (uint32_t k = 0; k < c->npterms; k++)
			if (c->pterms[k].required && !c->pterms[k].anti) {
				nreq += c->pterms[k].sel.n;
				null_sel |= !c->pterms[k].sel.present;
			}
		if (!null_sel) {
			kp_sel all = { 1, 0, nreq ? kp_arena_alloc(&cy->arena, nreq * sizeof(kp_sreq)) : NULL };
			if (nreq && !all.reqs)
				return KP_NOMEM;
			for (uint32_t k = 0; k < c->npterms; k++)
				if (c->pterms[k].required && !c->pterms[k].anti) {
					memcpy(all.reqs + all.n, c->pterms[k].sel.reqs, c->pterms[k].sel.n * sizeof(kp_sreq));
					all.n += c->pterms[k].sel.n;
				}
			int cid = kp_counter_get(cy->s, cy->p->ns, &all, 1);
			if (cid < 0)
				return KP_NOMEM;
			for (uint32_t k = 0; k < c->npterms; k++) {
				const kp_pterm *t = &c->pterms[k];
				if (t->required && !t->anti && add_counts(cy, &cy->aff_counts, cid, t->topo))
					return KP_NOMEM;
			}
		}
	}
	if (anti_counted) {
		for (uint32_t k = 0; k < c->npterms; k++) {
			const kp_pterm *t = &c->pterms[k];
			if (!t->required || !t->anti || !t->sel.present)
				continue;
			int cid = kp_counter_get(cy->s, cy->p->ns, &t->sel, 1);
			if (cid < 0 || add_counts(cy, &cy->anti_counts, cid, t->topo))
				return KP_NOMEM;
		}
	}
	if ((c->has_req_aff && !aff_counted) || (c->has_req_anti && !anti_counted)) {
		for (int n = 0; n < s->nnodes; n++)
			for (uint32_t j = 0; j < s->nnode_pods[n]; j++) {
				const kp_pod *e = &s->pods[s->node_pods[n][j]];
				if (c->has_req_aff && !aff_counted) {
					int all = 1;
					for (uint32_t k = 0; k < c->npterms && all; k++)
						if (c->pterms[k].required && !c->pterms[k].anti)
							all = kp_term_matches(s, &c->pterms[k], cy->p, e);
					for (uint32_t k = 0; k < c->npterms && all; k++) {
						const kp_pterm *t = &c->pterms[k];
						if (!t->required || t->anti)
							continue;
						kp_sid v = node_value(s, n, t->topo);
						if (v < 0)
							continue;
						int64_t *x = kp_dmap_put(&cy->aff_counts, kp_pair_key(t->topo, v));
						if (!x)
							return KP_NOMEM;
						(*x)++;
					}
				}
				for (uint32_t k = 0; c->has_req_anti && !anti_counted && k < c->npterms; k++) {
					const kp_pterm *t = &c->pterms[k];
					if (!t->required || !t->anti || !kp_term_matches(s, t, cy->p, e))
						continue;
					kp_sid v = node_value(s, n, t->topo);
					if (v < 0)
						continue;
					int64_t *x = kp_dmap_put(&cy->anti_counts, kp_pair_key(t->topo, v));
					if (!x)
						return KP_NOMEM;
					(*x)++;
				}
			}
	}
	cy->aff_empty = cy->aff_counts.n == 0;
	return KP_OK;
}

static int filter(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	if (c->has_req_aff) {
		int exist = 1;
		for (uint32_t k = 0; k < c->npterms; k++) {
			const kp_pterm *t = &c->pterms[k];
			if (!t->required || t->anti)
				continue;
			kp_sid v = node_value(s, node, t->topo);
			if (v < 0) {
				kp_cycle_fail(cy, node, KP_P_INTER_POD_AFFINITY, cy->r_aff, 1);
				return 1;
			}
			const int64_t *x = kp_dmap_get(&cy->aff_counts, kp_pair_key(t->topo, v));
			if (!x || *x <= 0)
				exist = 0;
		}
		if (!exist && !(cy->aff_empty && cy->self_matches_all)) {
			kp_cycle_fail(cy, node, KP_P_INTER_POD_AFFINITY, cy->r_aff, 1);
			return 1;
		}
	}
	if (c->has_req_anti && cy->anti_counts.n) {
		for (uint32_t k = 0; k < c->npterms; k++) {
			const kp_pterm *t = &c->pterms[k];
			if (!t->required || !t->anti)
				continue;
			kp_sid v = node_value(s, node, t->topo);
			if (v < 0)
				continue;
			const int64_t *x = kp_dmap_get(&cy->anti_counts, kp_pair_key(t->topo, v));
			if (x && *x > 0) {
				kp_cycle_fail(cy, node, KP_P_INTER_POD_AFFINITY, cy->r_anti, 0);
				return 1;
			}
		}
	}
	for (uint32_t i = 0; i < cy->existing_anti.n; i++) {
		int64_t key = cy->existing_anti.list[i];
		kp_sid k = (kp_sid)(key >> 32), v = (kp_sid)(uint32_t)key;
		if (node_value(s, node, k) == v && *kp_dmap_get(&cy->existing_anti, key) > 0) {
			kp_cycle_fail(cy, node, KP_P_INTER_POD_AFFINITY, cy->r_existing_anti, 0);
			return 1;
		}
	}
	return 0;
}

static int add_score(kp_cycle *cy, kp_sid key, int node, int64_t w)
{
	kp_sid v = node_value(cy->s, node, key);
	if (v < 0)
		return KP_OK;
	int64_t *x = kp_dmap_put(&cy->topo_score, kp_pair_key(key, v));
	if (!x)
		return KP_NOMEM;
	*x += w;
	return KP_OK;
}

/* one existing pod e on node n against the incoming pod (processExistingPod) */
static int process_existing(kp_cycle *cy, const kp_pod *e, int n, int has_pref)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c, *ec = &s->classes[e->cls];
	/* the incoming pod's preferred terms against e */
	for (uint32_t k = 0; has_pref && k < c->npterms; k++) {
		const kp_pterm *t = &c->pterms[k];
		if (t->required || !kp_term_matches(s, t, cy->p, e))
			continue;
		if (add_score(cy, t->topo, n, t->anti ? -t->weight : t->weight))
			return KP_NOMEM;
	}
	/* e's terms against the incoming pod; ignorePreferredTermsOfExistingPods
	 * only decides the Skip (scoring.go PreScore), every term counts here */
	for (uint32_t k = 0; k < ec->npterms; k++) {
		const kp_pterm *t = &ec->pterms[k];
		int64_t w;
		if (t->required && !t->anti)
			w = cy->pf->hard_pod_affinity_weight;
		else if (!t->required)
			w = t->anti ? -t->weight : t->weight;
		else
			continue;
		if (!w || !kp_term_matches(s, t, e, cy->p))
			continue;
		if (add_score(cy, t->topo, n, w))
			return KP_NOMEM;
	}
	return KP_OK;
}

static int pre_score(kp_cycle *cy)
{
	const kp_snap *s = cy->s;
	kp_dmap_clear(&cy->topo_score);
	int has_pref = cy->c->has_pref_pod;
	if (cy->pf->ignore_preferred_existing && !has_pref)
		return KP_SKIP;
	if (has_pref) {
		/* every placed pod can match the incoming pod's preferred terms */
		for (int n = 0; n < s->nnodes; n++) {
			if (!s->node_labels[n].n)
				continue;
			for (uint32_t j = 0; j < s->nnode_pods[n]; j++)
				if (process_existing(cy, &s->pods[s->node_pods[n][j]], n, 1))
					return KP_NOMEM;
		}
	} else {
		/* only pods with affinity terms can score (kube's PodsWithAffinity) */
		for (int i = 0; i < cy->naff_pods; i++) {
			const kp_pod *e = &s->pods[cy->aff_pods[i]];
			if (e->node >= 0 && s->node_labels[e->node].n && process_existing(cy, e, e->node, 0))
				return KP_NOMEM;
		}
	}
	return cy->topo_score.n ? KP_OK : KP_SKIP;
}

static int64_t score(kp_cycle *cy, int node)
{
	int64_t sum = 0;
	for (uint32_t i = 0; i < cy->topo_score.n; i++) {
		int64_t key = cy->topo_score.list[i];
		if (node_value(cy->s, node, (kp_sid)(key >> 32)) == (kp_sid)(uint32_t)key)
			sum += *kp_dmap_get(&cy->topo_score, key);
	}
	return sum;
}

static void normalize(kp_cycle *cy, int64_t *scores)
{
	int64_t min = INT64_MAX, max = INT64_MIN;
	for (int i = 0; i < cy->nfeas; i++) {
		int64_t v = scores[cy->feas[i]];
		if (v < min)
			min = v;
		if (v > max)
			max = v;
	}
	for (int i = 0; i < cy->nfeas; i++) {
		int n = cy->feas[i];
		scores[n] = max - min > 0 ? (int64_t)(100.0 * ((double)(scores[n] - min) / (double)(max - min))) : 0;
	}
}

const kp_plugin kp_plugin_inter_pod_affinity = {
	.name = "InterPodAffinity",
	.weight = 2,
	.pre_filter = pre_filter,
	.filter = filter,
	.pre_score = pre_score,
	.score = score,
	.normalize = normalize,
};
