/*
 * cycle.c — shared pieces of a scheduling cycle (see cycle.h): the
 * generation-cleared hash map, failure recording, default normalisation,
 * pod and node term matching, and the cycle's state (kp_cycle_init,
 * kp_cycle_release).
 */
#include "cycle.h"
#include "static.h"     /* kp_reason_intern */

#include <stdio.h>

#include <string.h>

int kp_dmap_init(kp_dmap *m, uint32_t expected)
{
	memset(m, 0, sizeof *m);
	uint32_t cap = 16;
	while (cap < expected * 2 + 16)
		cap *= 2;
	m->mask = cap - 1;
	m->gen = 1;
	m->keys = kp_malloc(cap * sizeof *m->keys);
	m->vals = kp_malloc(cap * sizeof *m->vals);
	m->stamp = kp_calloc(cap, sizeof *m->stamp);
	m->cap_list = 16;
	m->list = kp_malloc(m->cap_list * sizeof *m->list);
	return m->keys && m->vals && m->stamp && m->list ? KP_OK : KP_NOMEM;
}

void kp_dmap_release(kp_dmap *m)
{
	kp_free(m->keys);
	kp_free(m->vals);
	kp_free(m->stamp);
	kp_free(m->list);
	memset(m, 0, sizeof *m);
}

void kp_dmap_clear(kp_dmap *m)
{
	m->gen++;
	m->n = 0;
	if (m->gen == 0) {   /* wrapped: really clear */
		memset(m->stamp, 0, (m->mask + 1) * sizeof *m->stamp);
		m->gen = 1;
	}
}

static uint32_t hkey(int64_t k)
{
	uint64_t x = (uint64_t)k * 0x9e3779b97f4a7c15ULL;
	return (uint32_t)(x >> 32);
}

int64_t *kp_dmap_get(const kp_dmap *m, int64_t key)
{
	for (uint32_t h = hkey(key) & m->mask;; h = (h + 1) & m->mask) {
		if (m->stamp[h] != m->gen)
			return NULL;
		if (m->keys[h] == key)
			return &m->vals[h];
	}
}

static int dmap_grow(kp_dmap *m)
{
	kp_dmap bigger;
	if (kp_dmap_init(&bigger, (m->mask + 1)) != KP_OK) {
		kp_dmap_release(&bigger);
		return KP_NOMEM;
	}
	for (uint32_t i = 0; i < m->n; i++) {
		int64_t *v = kp_dmap_put(&bigger, m->list[i]);
		if (!v) {
			kp_dmap_release(&bigger);
			return KP_NOMEM;
		}
		*v = *kp_dmap_get(m, m->list[i]);
	}
	kp_dmap_release(m);
	*m = bigger;
	return KP_OK;
}

int64_t *kp_dmap_put(kp_dmap *m, int64_t key)
{
	if ((m->n + 1) * 2 > m->mask + 1 && dmap_grow(m) != KP_OK)
		return NULL;
	uint32_t h = hkey(key) & m->mask;
	for (;; h = (h + 1) & m->mask) {
		if (m->stamp[h] != m->gen)
			break;
		if (m->keys[h] == key)
			return &m->vals[h];
	}
	if (m->n == m->cap_list) {
		int64_t *l = kp_realloc(m->list, m->cap_list * 2 * sizeof *l);
		if (!l)
			return NULL;
		m->list = l;
		m->cap_list *= 2;
	}
	m->stamp[h] = m->gen;
	m->keys[h] = key;
	m->vals[h] = 0;
	m->list[m->n++] = key;
	return &m->vals[h];
}

int kp_cycle_fail(kp_cycle *cy, int node, int plugin, int reason, int unresolvable)
{
	if (cy->probing)
		return KP_OK;
	cy->verdicts_dirty = 1;
	if (cy->fail[node] < 0) {
		cy->fail[node] = (int8_t)plugin;
		cy->unres[node] = (uint8_t)unresolvable;
		cy->rstart[node] = (int32_t)cy->rlen;
		cy->rcount[node] = 0;
	}
	if (KP_GROW(cy->rbuf, cy->rlen, cy->rcap, 1024))
		return KP_NOMEM;
	cy->rbuf[cy->rlen++] = reason;
	cy->rcount[node]++;
	return KP_OK;
}

int kp_cycle_prefilter(kp_cycle *cy)
{
	cy->restrict_nodes = 0;
	cy->prefilter_msg = NULL;
	memset(cy->skip, 0, sizeof cy->skip);
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!cy->pf->filter[k] || !pg || !pg->pre_filter)
			continue;
		int rc = pg->pre_filter(cy);
		if (rc == KP_SKIP)
			cy->skip[k] = 1;
		else if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

int kp_cycle_filter_node(kp_cycle *cy, int n)
{
	cy->fail[n] = -1;
	cy->unres[n] = 0;
	if (cy->restrict_nodes && !cy->allowed[n]) {
		kp_cycle_fail(cy, n, KP_P_NODE_AFFINITY, cy->r_prefilter_out, 1);
		return 0;
	}
	for (int k = 0; k < KP_P_COUNT; k++) {
		const kp_plugin *pg = kp_plugins[k];
		if (!cy->pf->filter[k] || !pg || !pg->filter || cy->skip[k])
			continue;
		if (pg->filter(cy, n))
			return 0;
	}
	return 1;
}

int kp_static_filter(kp_cycle *cy, int node, int plugin)
{
	int32_t r = cy->c->static_reason[node];
	if (r < 0 || cy->s->reasons[r].plugin != kp_plugin_names[plugin])
		return 0;
	kp_cycle_fail(cy, node, plugin, r, 1);
	return 1;
}

/* kp_hash64 (kp.c) of the 16 bytes { pod, node } in two steps: FNV-1a over
 * the pod's 8 bytes once per pod, then the node's and the finaliser */
uint64_t kp_tiebreak_pod(uint64_t seed, int64_t pod)
{
	unsigned char b[8];
	memcpy(b, &pod, sizeof b);
	uint64_t h = 0xcbf29ce484222325ULL ^ (seed * 0x9e3779b97f4a7c15ULL);
	for (int i = 0; i < 8; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint32_t kp_tiebreak_node(uint64_t h, int64_t node)
{
	const uint64_t P = 0x100000001b3ULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (node >= 0 && node < (1 << 24)) {
		/* the same steps on a little-endian machine: the bytes in memory
		 * order, and a zero byte only multiplies, five of them by P^5 */
		uint64_t v = (uint64_t)node;
		h = (h ^ (v & 0xff)) * P;
		h = (h ^ (v >> 8 & 0xff)) * P;
		h = (h ^ (v >> 16)) * P;
		h *= P * P * P * P * P;
	} else
#endif
	{
		unsigned char b[8];
		memcpy(b, &node, sizeof b);
		for (int i = 0; i < 8; i++) {
			h ^= b[i];
			h *= P;
		}
	}
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return (uint32_t)(h >> 32);
}

uint64_t kp_tiebreak_pod_of(const kp_cycle *cy, int64_t pod)
{
	return kp_tiebreak_pod(cy->seed, cy->pf && cy->pf->tie_rank ? INT64_MIN : pod);
}

uint32_t kp_tiebreak(uint64_t seed, int64_t pod, int64_t node)
{
	return kp_tiebreak_node(kp_tiebreak_pod(seed, pod), node);
}

void kp_default_normalize(kp_cycle *cy, int64_t *scores, int reverse)
{
	int64_t max = 0;
	for (int i = 0; i < cy->nfeas; i++)
		if (scores[cy->feas[i]] > max)
			max = scores[cy->feas[i]];
	for (int i = 0; i < cy->nfeas; i++) {
		int n = cy->feas[i];
		if (max == 0) {
			if (reverse)
				scores[n] = 100;
			continue;
		}
		scores[n] = 100 * scores[n] / max;
		if (reverse)
			scores[n] = 100 - scores[n];
	}
}

static int ns_in_term(const kp_snap *s, const kp_pterm *t, const kp_pod *owner, const kp_pod *target)
{
	if (!t->nns && !t->ns_sel.present)
		return target->ns == owner->ns;
	for (uint32_t i = 0; i < t->nns; i++)
		if (t->ns[i] == target->ns)
			return 1;
	if (t->ns_sel.present) {
		if (!t->ns_sel.n)
			return 1;   /* namespaceSelector: {} matches every namespace */
		for (int i = 0; i < s->nnamespaces; i++)
			if (s->ns_name[i] == target->ns)
				return kp_sel_match(&t->ns_sel, &s->ns_labels[i], &s->strs);
	}
	return 0;
}

int kp_term_matches(const kp_snap *s, const kp_pterm *t, const kp_pod *owner, const kp_pod *target)
{
	if (!ns_in_term(s, t, owner, target))
		return 0;
	if (!kp_sel_match(&t->sel, &target->labels, &s->strs))
		return 0;
	/* matchLabelKeys: key in (owner's value); mismatchLabelKeys: key notin (owner's value) */
	for (uint32_t i = 0; i < t->nmlk; i++) {
		kp_sid v = kp_labels_get(&owner->labels, t->mlk[i]);
		if (v >= 0 && kp_labels_get(&target->labels, t->mlk[i]) != v)
			return 0;
	}
	for (uint32_t i = 0; i < t->nmmlk; i++) {
		kp_sid v = kp_labels_get(&owner->labels, t->mmlk[i]);
		if (v >= 0 && kp_labels_get(&target->labels, t->mmlk[i]) == v)
			return 0;
	}
	return 1;
}

int kp_nterms_any(const kp_snap *s, const kp_nterm *terms, uint32_t nterms, int n)
{
	for (uint32_t t = 0; t < nterms; t++)
		if (kp_nterm_matches(s, &terms[t], n))
			return 1;
	return 0;
}

int kp_nterm_matches(const kp_snap *s, const kp_nterm *t, int n)
{
	if (!t->nexprs && !t->nfields)
		return 0;
	for (uint32_t i = 0; i < t->nexprs; i++)
		if (!kp_sreq_match(&t->exprs[i], kp_labels_get(&s->node_labels[n], t->exprs[i].key), &s->strs))
			return 0;
	for (uint32_t i = 0; i < t->nfields; i++)
		if (!kp_sreq_match(&t->fields[i], s->node_name[n], &s->strs))
			return 0;
	return 1;
}

/* ---- the cycle's state ---- */

static int push_pod(int32_t **v, int *n, int *cap, int32_t pi)
{
	if (KP_GROW(*v, *n, *cap, 64))
		return KP_NOMEM;
	(*v)[(*n)++] = pi;
	return KP_OK;
}

int kp_cycle_add_affinity_pod(kp_cycle *cy, int32_t pi)
{
	const kp_class *c = &cy->s->classes[cy->s->pods[pi].cls];
	/* once each: a pod bound again after an eviction is already listed
	 * (the lists skip pods that are not placed) */
	if (c->has_req_anti && !(cy->listed[pi] & 1)) {
		if (push_pod(&cy->anti_pods, &cy->nanti_pods, &cy->cap_anti_pods, pi) || kp_ipa_add_pod(cy, pi))
			return KP_NOMEM;
		cy->listed[pi] |= 1;
	}
	/* scoring reads only the terms that score: preferred ones and required
	 * affinity (hardPodAffinityWeight); a pod with required anti-affinity
	 * alone never adds to a node's score */
	if ((c->has_req_aff || c->has_pref_pod) && !(cy->listed[pi] & 2)) {
		if (push_pod(&cy->aff_pods, &cy->naff_pods, &cy->cap_aff_pods, pi))
			return KP_NOMEM;
		cy->listed[pi] |= 2;
	}
	return KP_OK;
}

/* kube's reasons that are not SQL filters', interned once (their ids are the
 * snapshot's, in this order) */
static int intern_reasons(kp_cycle *cy, kp_snap *s)
{
	const char *const *P = kp_plugin_names;
	for (int r = 0; r < s->nres; r++) {
		char msg[600];
		snprintf(msg, sizeof msg, "Insufficient %s", kp_str(&s->strs, s->res_name[r]));
		if ((cy->r_insufficient[r] = kp_reason_intern(s, P[KP_P_NODE_RESOURCES_FIT], msg, 0)) < 0)
			return KP_NOMEM;
	}
	cy->r_too_many_pods = kp_reason_intern(s, P[KP_P_NODE_RESOURCES_FIT], "Too many pods", 0);
	cy->r_ports = kp_reason_intern(s, P[KP_P_NODE_PORTS], "node(s) didn't have free ports for the requested pod ports", 0);
	cy->r_spread_missing = kp_reason_intern(s, P[KP_P_POD_TOPOLOGY_SPREAD],
						"node(s) didn't match pod topology spread constraints (missing required label)", 1);
	cy->r_spread = kp_reason_intern(s, P[KP_P_POD_TOPOLOGY_SPREAD], "node(s) didn't match pod topology spread constraints", 0);
	cy->r_aff = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY], "node(s) didn't match pod affinity rules", 1);
	cy->r_anti = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY], "node(s) didn't match pod anti-affinity rules", 0);
	cy->r_existing_anti = kp_reason_intern(s, P[KP_P_INTER_POD_AFFINITY],
					       "node(s) didn't satisfy existing pods anti-affinity rules", 0);
	cy->r_added_affinity = kp_reason_intern(s, P[KP_P_NODE_AFFINITY], "node(s) didn't match scheduler-enforced node affinity", 1);
	cy->r_prefilter_out = kp_reason_intern(s, P[KP_P_NODE_AFFINITY], "node is filtered out by the prefilter result", 1);
	cy->r_no_victims = kp_reason_intern(s, P[KP_P_DEFAULT_PREEMPTION], "No preemption victims found for incoming pod", 1);
	cy->r_not_helpful = kp_reason_intern(s, P[KP_P_DEFAULT_PREEMPTION], "Preemption is not helpful for scheduling", 1);
	cy->r_disk = kp_reason_intern(s, P[KP_P_VOLUME_RESTRICTIONS], "node(s) had no available disk", 0);
	cy->r_rwop = kp_reason_intern(s, P[KP_P_VOLUME_RESTRICTIONS],
				      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode", 0);
	cy->r_max_volumes = kp_reason_intern(s, P[KP_P_NODE_VOLUME_LIMITS], "node(s) exceed max volume count", 0);
	/* ErrReasonNodeConflict: renamed by PR #129887 (opened 2025-01-29; kplan
	 * takes 1.33, the release is not verified: docs/kube-versions.md §3) */
	cy->r_vb_node = kp_reason_intern(s, P[KP_P_VOLUME_BINDING], s->kube.minor >= 33 ? "node(s) didn't match PersistentVolume's node affinity"
										 : "node(s) had volume node affinity conflict", 1);
	cy->r_vb_bind = kp_reason_intern(s, P[KP_P_VOLUME_BINDING], "node(s) didn't find available persistent volumes to bind", 1);
	cy->r_vb_space = kp_reason_intern(s, P[KP_P_VOLUME_BINDING], "node(s) did not have enough free storage", 1);
	cy->r_vb_pv = kp_reason_intern(s, P[KP_P_VOLUME_BINDING],
				       "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)", 1);
	cy->r_zone = kp_reason_intern(s, P[KP_P_VOLUME_ZONE], "node(s) had no available volume zone", 1);
	if (cy->r_disk < 0 || cy->r_rwop < 0 || cy->r_max_volumes < 0 || cy->r_vb_node < 0 || cy->r_vb_bind < 0 ||
	    cy->r_vb_space < 0 || cy->r_vb_pv < 0 || cy->r_zone < 0)
		return KP_NOMEM;
	if (cy->r_too_many_pods < 0 || cy->r_ports < 0 || cy->r_spread_missing < 0 || cy->r_spread < 0 || cy->r_aff < 0 ||
	    cy->r_anti < 0 || cy->r_existing_anti < 0 || cy->r_added_affinity < 0 || cy->r_prefilter_out < 0 ||
	    cy->r_no_victims < 0 || cy->r_not_helpful < 0)
		return KP_NOMEM;
	return KP_OK;
}

int kp_cycle_init(kp_cycle *cy, kp_snap *s, uint64_t seed)
{
	size_t n = (size_t)(s->nnodes ? s->nnodes : 1);
	cy->s = s;
	cy->seed = seed;
	kp_arena_init(&cy->arena, 64 * 1024);
	cy->feas = kp_calloc(n, sizeof *cy->feas);
	cy->fail = kp_malloc(n);
	cy->unres = kp_calloc(n, 1);
	cy->rstart = kp_calloc(n, sizeof *cy->rstart);
	cy->rcount = kp_calloc(n, sizeof *cy->rcount);
	cy->raw = kp_calloc(n, sizeof *cy->raw);
	cy->spread_ignored = kp_calloc(n, 1);
	cy->elig_cls = -1;
	cy->allowed = kp_calloc(n, 1);
	cy->min_prio = kp_calloc(n, sizeof *cy->min_prio);
	cy->min_prio_stamp = kp_calloc(n, sizeof *cy->min_prio_stamp);
	cy->listed = kp_calloc((size_t)(s->npods ? s->npods : 1), 1);
	cy->r_insufficient = kp_calloc((size_t)(s->nres ? s->nres : 1), sizeof *cy->r_insufficient);
	if (!cy->feas || !cy->fail || !cy->unres || !cy->rstart || !cy->rcount || !cy->raw || !cy->spread_ignored ||
	    !cy->allowed || !cy->min_prio || !cy->min_prio_stamp || !cy->listed || !cy->r_insufficient)
		return KP_NOMEM;
	memset(cy->fail, -1, n);
	cy->verdicts_dirty = 1;   /* unres too, on the first cycle */
	if (kp_dmap_init(&cy->aff_counts, 64) || kp_dmap_init(&cy->anti_counts, 64) ||
	    kp_dmap_init(&cy->existing_anti, 64) || kp_dmap_init(&cy->topo_score, 64) ||
	    kp_dmap_init(&cy->anti_memo, 64) || kp_dmap_init(&cy->agroup_index, 64))
		return KP_NOMEM;
	if (intern_reasons(cy, s))
		return KP_NOMEM;
	/* pods already running with affinity terms */
	for (int32_t i = 0; i < s->npods; i++)
		if (s->pods[i].node >= 0 && s->classes[s->pods[i].cls].npterms && kp_cycle_add_affinity_pod(cy, i))
			return KP_NOMEM;
	return KP_OK;
}

void kp_cycle_release(kp_cycle *cy)
{
	kp_free(cy->feas);
	kp_free(cy->fail);
	kp_free(cy->unres);
	kp_free(cy->rstart);
	kp_free(cy->rcount);
	kp_free(cy->rbuf);
	kp_free(cy->raw);
	kp_free(cy->spread_ignored);
	kp_free(cy->allowed);
	kp_free(cy->r_insufficient);
	kp_free(cy->anti_pods);
	kp_free(cy->aff_pods);
	kp_free(cy->ext_off);
	kp_free(cy->ext_rows);
	for (int i = 0; i < cy->cap_cs; i++) {
		kp_free(cy->cs[i].dcnt);
		kp_free(cy->cs[i].dpres);
		kp_free(cy->cs[i].host_cnt);
		kp_free(cy->cs[i].elig);
		kp_free(cy->cs[i].elig_dpres);
	}
	kp_free(cy->cs);
	kp_dmap_release(&cy->aff_counts);
	kp_dmap_release(&cy->anti_counts);
	kp_dmap_release(&cy->existing_anti);
	kp_dmap_release(&cy->anti_memo);
	kp_ipa_release(cy);
	kp_free(cy->listed);
	kp_free(cy->min_prio);
	kp_free(cy->min_prio_stamp);
	kp_dmap_release(&cy->topo_score);
	kp_arena_release(&cy->arena);
}
