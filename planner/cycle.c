/*
 * cycle.c — shared pieces of a scheduling cycle (see cycle.h): the
 * generation-cleared hash map, failure recording, default normalisation,
 * pod and node term matching, and the plugin registry.
 */
#include "cycle.h"

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

uint32_t kp_tiebreak(uint64_t seed, int64_t pod, int64_t node)
{
	int64_t k[2] = { pod, node };
	return (uint32_t)(kp_hash64(k, sizeof k, seed) >> 32);
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
