/*
 * snapshot_counters.c — the snapshot's incremental topology counters
 * (kp_counter_get, kp_counters_update; declared in snapshot.h, the tables in
 * counters.h): a counter for (namespace, label selector) is filled by one
 * scan of the placed pods the first time a plugin asks for it, then kept
 * current by kp_snap_add_pod / kp_snap_remove_pod.  Part of the snapshot
 * module: it reads the pods, their labels and the nodes' pod lists.
 */
#include "snapshot.h"

#include <string.h>

static uint64_t sel_hash(int32_t ns, const kp_sel *sel)
{
	uint64_t h = kp_hash64(&ns, sizeof ns, 11);
	for (uint32_t i = 0; i < sel->n; i++) {
		const kp_sreq *r = &sel->reqs[i];
		int64_t head[3] = { r->key, r->op, r->num };
		h = kp_hash64(head, sizeof head, h);
		h = kp_hash64(r->vals, r->nvals * sizeof *r->vals, h);
	}
	return h ^ sel->present;
}

static int sel_equal(const kp_sel *a, const kp_sel *b)
{
	if (a->present != b->present || a->n != b->n)
		return 0;
	for (uint32_t i = 0; i < a->n; i++) {
		const kp_sreq *x = &a->reqs[i], *y = &b->reqs[i];
		if (x->key != y->key || x->op != y->op || x->num != y->num || x->nvals != y->nvals ||
		    x->invalid != y->invalid || (x->nvals && memcmp(x->vals, y->vals, x->nvals * sizeof *x->vals)))
			return 0;
	}
	return 1;
}

static int matches(const kp_snap *s, const kp_counter *c, const kp_pod *p)
{
	return p->ns == c->ns && (c->terminating || !p->terminating) && kp_sel_match(c->sel, &p->labels, &s->strs);
}

static int grow_slots(kp_counters *cs)
{
	uint32_t n = cs->nslots ? cs->nslots * 2 : 256;
	int32_t *slots = kp_malloc(n * sizeof *slots);
	if (!slots)
		return KP_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		slots[i] = -1;
	for (int k = 0; k < cs->n; k++) {
		uint32_t h = (uint32_t)cs->v[k].hash & (n - 1);
		while (slots[h] >= 0)
			h = (h + 1) & (n - 1);
		slots[h] = k;
	}
	kp_free(cs->slots);
	cs->slots = slots;
	cs->nslots = n;
	return KP_OK;
}

static uint32_t lidx_hash(int64_t key) { return (uint32_t)(((uint64_t)key * 0x9e3779b97f4a7c15ULL) >> 32); }

/* slot of (key, value) in the label index, or -1 */
static int32_t lidx_find(const kp_counters *cs, int64_t key)
{
	uint32_t m = cs->nlidx_slots - 1;
	for (uint32_t h = lidx_hash(key) & m; cs->lidx_count[h] >= 0; h = (h + 1) & m)
		if (cs->lidx_keys[h] == key)
			return (int32_t)h;
	return -1;
}

/* (key, value) -> pods, over every pod of the snapshot (labels never change
 * during a run; whether a pod is placed is checked when reading) */
static int build_label_index(kp_snap *s)
{
	kp_counters *cs = &s->counters;
	size_t total = 0;
	for (int i = 0; i < s->npods; i++)
		total += s->pods[i].labels.n;
	uint32_t nslots = 64;
	while (nslots < total * 2 + 64)
		nslots *= 2;
	cs->lidx_keys = kp_malloc(nslots * sizeof *cs->lidx_keys);
	cs->lidx_start = kp_malloc(nslots * sizeof *cs->lidx_start);
	cs->lidx_count = kp_malloc(nslots * sizeof *cs->lidx_count);
	cs->lidx_pods = kp_malloc((total ? total : 1) * sizeof *cs->lidx_pods);
	if (!cs->lidx_keys || !cs->lidx_start || !cs->lidx_count || !cs->lidx_pods)
		return KP_NOMEM;
	cs->nlidx_slots = nslots;
	for (uint32_t h = 0; h < nslots; h++)
		cs->lidx_count[h] = -1;
	/* count per key, then offsets, then fill */
	for (int i = 0; i < s->npods; i++)
		for (uint32_t j = 0; j < s->pods[i].labels.n; j++) {
			int64_t key = ((int64_t)s->pods[i].labels.v[j].key << 32) | (uint32_t)s->pods[i].labels.v[j].value;
			uint32_t h = lidx_hash(key) & (nslots - 1);
			while (cs->lidx_count[h] >= 0 && cs->lidx_keys[h] != key)
				h = (h + 1) & (nslots - 1);
			if (cs->lidx_count[h] < 0) {
				cs->lidx_keys[h] = key;
				cs->lidx_count[h] = 0;
			}
			cs->lidx_count[h]++;
		}
	int32_t off = 0;
	for (uint32_t h = 0; h < nslots; h++)
		if (cs->lidx_count[h] >= 0) {
			cs->lidx_start[h] = off;
			off += cs->lidx_count[h];
			cs->lidx_count[h] = 0;
		}
	for (int i = 0; i < s->npods; i++)
		for (uint32_t j = 0; j < s->pods[i].labels.n; j++) {
			int32_t h = lidx_find(cs, ((int64_t)s->pods[i].labels.v[j].key << 32) | (uint32_t)s->pods[i].labels.v[j].value);
			cs->lidx_pods[cs->lidx_start[h] + cs->lidx_count[h]++] = i;
		}
	cs->lidx_built = 1;
	return KP_OK;
}

int kp_counter_get(kp_snap *s, int32_t ns, const kp_sel *sel, int terminating)
{
	kp_counters *cs = &s->counters;
	uint64_t h = sel_hash(ns, sel) ^ ((uint64_t)!!terminating << 63);
	if (cs->nslots)
		for (uint32_t i = (uint32_t)h & (cs->nslots - 1); cs->slots[i] >= 0; i = (i + 1) & (cs->nslots - 1)) {
			kp_counter *c = &cs->v[cs->slots[i]];
			if (c->hash == h && c->ns == ns && c->terminating == !!terminating && sel_equal(c->sel, sel))
				return cs->slots[i];
		}
	/* new: a persistent copy of the selector, counts from one scan */
	if ((cs->n + 1) * 2 > (int)cs->nslots && grow_slots(cs))
		return -1;
	if (KP_GROW(cs->v, cs->n, cs->cap, 64))
		return -1;
	kp_counter *c = &cs->v[cs->n];
	kp_counter_init(c, s->nnodes);
	c->hash = h;
	c->ns = ns;
	c->terminating = (uint8_t)!!terminating;
	c->sel = kp_arena_alloc(&s->arena, sizeof *c->sel);
	if (!c->sel)
		return -1;
	*c->sel = *sel;
	c->sel->reqs = sel->n ? kp_arena_alloc(&s->arena, sel->n * sizeof *sel->reqs) : NULL;
	if (sel->n && !c->sel->reqs)
		return -1;
	for (uint32_t i = 0; i < sel->n; i++) {
		c->sel->reqs[i] = sel->reqs[i];
		if (sel->reqs[i].nvals) {
			c->sel->reqs[i].vals = kp_arena_alloc(&s->arena, sel->reqs[i].nvals * sizeof(kp_sid));
			if (!c->sel->reqs[i].vals)
				return -1;
			memcpy(c->sel->reqs[i].vals, sel->reqs[i].vals, sel->reqs[i].nvals * sizeof(kp_sid));
		}
	}
	int idx = cs->n++;
	uint32_t slot = (uint32_t)h & (cs->nslots - 1);
	while (cs->slots[slot] >= 0)
		slot = (slot + 1) & (cs->nslots - 1);
	cs->slots[slot] = idx;
	/* trigger: the first In requirement's (key, value) pairs */
	const kp_sreq *trig = NULL;
	for (uint32_t i = 0; i < sel->n && !trig; i++)
		if (sel->reqs[i].op == KP_OP_IN && sel->reqs[i].nvals && !sel->reqs[i].invalid)
			trig = &sel->reqs[i];
	if (trig) {
		for (uint32_t k = 0; k < trig->nvals; k++)
			if (kp_multimap_add(&cs->trig, ((int64_t)trig->key << 32) | (uint32_t)trig->vals[k], idx))
				return -1;
	} else if (sel->present) {
		if (KP_GROW(cs->always, cs->nalways, cs->cap_always, 16))
			return -1;
		cs->always[cs->nalways++] = idx;
	}
	/* the placed pods: those carrying a trigger label, else every one */
	c = &cs->v[idx];
	if (trig && (cs->lidx_built || build_label_index(s) == KP_OK)) {
		for (uint32_t k = 0; k < trig->nvals; k++) {
			int32_t slot = lidx_find(cs, ((int64_t)trig->key << 32) | (uint32_t)trig->vals[k]);
			for (int32_t j = 0; slot >= 0 && j < cs->lidx_count[slot]; j++) {
				const kp_pod *p = &s->pods[cs->lidx_pods[cs->lidx_start[slot] + j]];
				if (p->node >= 0 && matches(s, c, p) && kp_counter_add(c, p->node, 1))
					return -1;
			}
		}
		return idx;
	}
	if (trig)
		return -1;   /* out of memory building the index */
	for (int n = 0; n < s->nnodes; n++)
		for (uint32_t j = 0; j < s->nnode_pods[n]; j++)
			if (matches(s, c, &s->pods[s->node_pods[n][j]]) && kp_counter_add(c, n, 1))
				return -1;
	return idx;
}

int kp_counters_update(kp_snap *s, int32_t pi, int node, int delta)
{
	kp_counters *cs = &s->counters;
	const kp_pod *p = &s->pods[pi];
	if (!cs->n)
		return KP_OK;
	for (uint32_t i = 0; i < p->labels.n && cs->trig.nkeys; i++) {
		int64_t key = ((int64_t)p->labels.v[i].key << 32) | (uint32_t)p->labels.v[i].value;
		for (int32_t k = kp_multimap_first(&cs->trig, key); k >= 0; k = cs->trig.next[k]) {
			kp_counter *c = &cs->v[cs->trig.val[k]];
			if (matches(s, c, p) && kp_counter_add(c, node, delta))
				return KP_NOMEM;
		}
	}
	for (int i = 0; i < cs->nalways; i++) {
		kp_counter *c = &cs->v[cs->always[i]];
		if (matches(s, c, p) && kp_counter_add(c, node, delta))
			return KP_NOMEM;
	}
	return KP_OK;
}
