/*
 * counters.c — the storage of the topology counters (counters.h): the
 * (key -> chain) multimap their triggers live in, one counter's counts per
 * node (sparse entries, or dense once many nodes have some), and releasing
 * the table.
 * What a counter counts is the snapshot's business (snapshot_counters.c);
 * nothing here reads a pod or a node.
 */
#include "counters.h"
#include "../common/kp.h"

#include <string.h>

static uint32_t mm_hash(int64_t key) { return (uint32_t)((uint64_t)key * 0x9e3779b97f4a7c15ULL >> 32); }

static int32_t *mm_slot(const kp_multimap *m, int64_t key)
{
	if (!m->nslots)
		return NULL;
	for (uint32_t h = mm_hash(key) & (m->nslots - 1); m->heads[h] != -2; h = (h + 1) & (m->nslots - 1))
		if (m->keys[h] == key)
			return &m->heads[h];
	return NULL;
}

int32_t kp_multimap_first(const kp_multimap *m, int64_t key)
{
	const int32_t *head = mm_slot(m, key);
	return head ? *head : -1;
}

int kp_multimap_add(kp_multimap *m, int64_t key, int32_t value)
{
	int32_t *head = mm_slot(m, key);
	if (!head) {
		if ((m->nkeys + 1) * 2 > m->nslots) {
			uint32_t n = m->nslots ? m->nslots * 2 : 256;
			int64_t *keys = kp_malloc(n * sizeof *keys);
			int32_t *heads = kp_malloc(n * sizeof *heads);
			if (!keys || !heads) {
				kp_free(keys);
				kp_free(heads);
				return KP_NOMEM;
			}
			for (uint32_t i = 0; i < n; i++)
				heads[i] = -2;
			for (uint32_t i = 0; i < m->nslots; i++) {
				if (m->heads[i] == -2)
					continue;
				uint32_t h = mm_hash(m->keys[i]) & (n - 1);
				while (heads[h] != -2)
					h = (h + 1) & (n - 1);
				keys[h] = m->keys[i];
				heads[h] = m->heads[i];
			}
			kp_free(m->keys);
			kp_free(m->heads);
			m->keys = keys;
			m->heads = heads;
			m->nslots = n;
		}
		uint32_t h = mm_hash(key) & (m->nslots - 1);
		while (m->heads[h] != -2)
			h = (h + 1) & (m->nslots - 1);
		m->keys[h] = key;
		m->heads[h] = -1;
		m->nkeys++;
		head = &m->heads[h];
	}
	if (m->n == m->cap) {
		int cap = m->cap ? m->cap * 2 : 256;
		int32_t *v = kp_realloc(m->val, (size_t)cap * sizeof *v);
		if (!v)
			return KP_NOMEM;
		m->val = v;
		int32_t *nx = kp_realloc(m->next, (size_t)cap * sizeof *nx);
		if (!nx)
			return KP_NOMEM;
		m->next = nx;
		m->cap = cap;
	}
	m->val[m->n] = value;
	m->next[m->n] = *head;
	*head = m->n++;
	return KP_OK;
}

void kp_multimap_release(kp_multimap *m)
{
	kp_free(m->keys);
	kp_free(m->heads);
	kp_free(m->val);
	kp_free(m->next);
	memset(m, 0, sizeof *m);
}

void kp_counter_init(kp_counter *c, int32_t nnodes)
{
	memset(c, 0, sizeof *c);
	c->nnodes = nnodes;
}

/* the first entry whose node is >= node (c->n when none) */
static int32_t lower_bound(const kp_counter *c, int node)
{
	int32_t lo = 0, hi = c->n;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (c->e[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int32_t kp_counter_count(const kp_counter *c, int node)
{
	if (c->dense)
		return c->dense[node];
	int32_t i = lower_bound(c, node);
	return i < c->n && c->e[i].node == node ? c->e[i].count : 0;
}

static int to_dense(kp_counter *c)
{
	int32_t *d = kp_calloc((size_t)(c->nnodes ? c->nnodes : 1), sizeof *d);
	if (!d)
		return KP_NOMEM;
	for (int32_t i = 0; i < c->n; i++)
		d[c->e[i].node] = c->e[i].count;
	kp_free(c->e);
	c->e = NULL;
	c->n = c->cap = 0;
	c->dense = d;
	return KP_OK;
}

int kp_counter_add(kp_counter *c, int node, int32_t delta)
{
	if (c->dense) {
		c->dense[node] += delta;
		return KP_OK;
	}
	int32_t i = lower_bound(c, node);
	if (i < c->n && c->e[i].node == node) {
		c->e[i].count += delta;
		return KP_OK;
	}
	if (c->n >= KP_COUNTER_SPARSE_MAX(c->nnodes)) {
		if (to_dense(c))
			return KP_NOMEM;
		c->dense[node] += delta;
		return KP_OK;
	}
	if (c->n == c->cap) {
		int32_t cap = c->cap ? c->cap * 2 : 4;
		kp_cslot *e = kp_realloc(c->e, (size_t)cap * sizeof *e);
		if (!e)
			return KP_NOMEM;
		c->e = e;
		c->cap = cap;
	}
	memmove(c->e + i + 1, c->e + i, (size_t)(c->n - i) * sizeof *c->e);
	c->e[i] = (kp_cslot){ node, delta };
	c->n++;
	return KP_OK;
}

void kp_counter_scatter(const kp_counter *c, int32_t *dst)
{
	if (c->dense) {
		memcpy(dst, c->dense, (size_t)c->nnodes * sizeof *dst);
		return;
	}
	for (int32_t i = 0; i < c->n; i++)
		dst[c->e[i].node] = c->e[i].count;
}

void kp_counter_unscatter(const kp_counter *c, int32_t *dst)
{
	if (c->dense) {
		memset(dst, 0, (size_t)c->nnodes * sizeof *dst);
		return;
	}
	for (int32_t i = 0; i < c->n; i++)
		dst[c->e[i].node] = 0;
}

size_t kp_counter_bytes(const kp_counter *c)
{
	return c->dense ? (size_t)c->nnodes * sizeof *c->dense : (size_t)c->cap * sizeof *c->e;
}

void kp_counters_release(kp_counters *cs)
{
	for (int i = 0; i < cs->n; i++) {
		kp_free(cs->v[i].e);
		kp_free(cs->v[i].dense);
	}
	kp_free(cs->v);
	kp_free(cs->slots);
	kp_multimap_release(&cs->trig);
	kp_free(cs->always);
	kp_free(cs->lidx_keys);
	kp_free(cs->lidx_start);
	kp_free(cs->lidx_count);
	kp_free(cs->lidx_pods);
	memset(cs, 0, sizeof *cs);
}
