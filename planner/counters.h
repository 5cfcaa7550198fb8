/*
 * counters.h — the tables of the incremental topology counters: for a
 * (namespace, label selector), how many pods on each node match (same
 * namespace, not terminating, selector matches their labels).  A counter is
 * built by one scan the first time a pod asks for it, then kept current by
 * every placement and removal, so PodTopologySpread reads counts instead of
 * rescanning every pod.  The snapshot owns them (kp_snap.counters) and fills
 * them: kp_counter_get and kp_counters_update are declared in snapshot.h and
 * live in snapshot_counters.c; this header knows nothing of the snapshot.
 *
 * Updates find the counters a pod can touch through a trigger index: a
 * counter is registered under the (key, value) pairs of its first In
 * requirement; counters without one are checked on every placement.
 *
 * A counter stores only the nodes that have had a matching pod (kp_counter
 * below): a plain mix has one counter per Deployment, and a dense int32 per
 * node each took 9.4 GB at 50,000 nodes.
 */
#ifndef KP_COUNTERS_H
#define KP_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

struct kp_sel;

/* int64 key -> a chain of int32 values, newest first:
 *   for (int32_t i = kp_multimap_first(m, key); i >= 0; i = m->next[i]) use(m->val[i]);
 * A zeroed struct is an empty map. */
typedef struct kp_multimap {
	int64_t *keys;           /* open addressing */
	int32_t *heads;          /* per slot: first chain entry, -1; -2 empty slot */
	uint32_t nslots, nkeys;
	int32_t *val, *next;     /* chain entries */
	int n, cap;
} kp_multimap;

int kp_multimap_add(kp_multimap *m, int64_t key, int32_t value);   /* KP_OK or KP_NOMEM */
int32_t kp_multimap_first(const kp_multimap *m, int64_t key);      /* first chain entry, -1 none */
void kp_multimap_release(kp_multimap *m);

/* One counter's counts per node.  Sparse while few nodes have had matching
 * pods: entries e[0..n) ascending by node, a node's entry created with its
 * first matching pod and kept when the count falls back to 0 (so a node
 * once counted is always an entry: removal and re-adding, as in a
 * preemption dry run, never allocate).  Once more than
 * KP_COUNTER_SPARSE_MAX(nnodes) nodes are entries it turns dense (dense[node]
 * over every node, e freed) and stays so: a dense array costs at most 4x the
 * entries it replaces.  A 5,000-node plain plan's ~4,500 counters hold one
 * entry per placed pod instead of 5,000 int32 each (docs/performance.md).
 *
 * Read it through the accessors below, never the fields:
 *   kp_counter_count(c, node)                  the count of one node
 *   for (int ok = kp_counter_first(c, &it); ok; ok = kp_counter_next(c, &it))
 *           use(it.node, it.count);            non-zero counts, ascending by node
 *   kp_counter_scatter / kp_counter_unscatter  into / out of a zeroed per-node
 *                                              array, for random access when hot */
typedef struct kp_cslot { int32_t node, count; } kp_cslot;

typedef struct kp_counter {
	uint64_t hash;
	int32_t ns;              /* kp_sid */
	uint8_t terminating;     /* terminating pods count too (inter-pod affinity); not for spreading */
	struct kp_sel *sel;      /* persistent copy */
	int32_t nnodes;          /* the snapshot's, for the dense form */
	int32_t n, cap;          /* sparse entries */
	kp_cslot *e;             /* sparse: ascending by node; NULL when dense */
	int32_t *dense;          /* dense: per node; NULL while sparse */
} kp_counter;

#define KP_COUNTER_SPARSE_MAX(nnodes) ((nnodes) / 8 > 8 ? (nnodes) / 8 : 8)

/* an empty (sparse) counter over nnodes nodes; the caller fills hash, ns, terminating, sel */
void kp_counter_init(kp_counter *c, int32_t nnodes);
/* count[node] += delta: KP_OK, or KP_NOMEM (the counter unchanged).  A
 * negative delta never allocates (the node is an entry since its pods came). */
int kp_counter_add(kp_counter *c, int node, int32_t delta);
/* the count of node (0 when none) */
int32_t kp_counter_count(const kp_counter *c, int node);

/* iteration over the nodes with a non-zero count, ascending by node */
typedef struct kp_counter_it { int32_t node, count, pos; } kp_counter_it;

static inline int kp_counter_next(const kp_counter *c, kp_counter_it *it)
{
	if (c->dense) {
		while (++it->pos < c->nnodes)
			if (c->dense[it->pos]) {
				it->node = it->pos;
				it->count = c->dense[it->pos];
				return 1;
			}
		return 0;
	}
	while (++it->pos < c->n)
		if (c->e[it->pos].count) {
			it->node = c->e[it->pos].node;
			it->count = c->e[it->pos].count;
			return 1;
		}
	return 0;
}

static inline int kp_counter_first(const kp_counter *c, kp_counter_it *it)
{
	it->pos = -1;
	return kp_counter_next(c, it);
}

/* dst[node] = count for every node with one (dst all zero before, nnodes
 * long); kp_counter_unscatter zeroes it again, in O(entries) while the
 * counter stays sparse (every node scattered is still an entry), O(nnodes)
 * once it turned dense.  Counts may change in between. */
void kp_counter_scatter(const kp_counter *c, int32_t *dst);
void kp_counter_unscatter(const kp_counter *c, int32_t *dst);
/* the counter's own per-node array when dense (read only), else NULL */
static inline const int32_t *kp_counter_dense(const kp_counter *c) { return c->dense; }
/* bytes the counts take (the dense array or the entries' capacity) */
size_t kp_counter_bytes(const kp_counter *c);

typedef struct kp_counters {
	kp_counter *v;
	int n, cap;
	/* hash -> counter: open addressing over indexes, -1 empty */
	int32_t *slots;
	uint32_t nslots;
	/* triggers: (key, value) -> counter indexes */
	kp_multimap trig;
	int32_t *always;         /* counters with no trigger */
	int nalways, cap_always;
	/* label index over every pod, built with the first triggered counter:
	 * (key, value) -> the pods carrying it (lidx_pods[lidx_start..+lidx_count]) */
	int lidx_built;
	uint32_t nlidx_slots;
	int64_t *lidx_keys;
	int32_t *lidx_start, *lidx_count, *lidx_pods;
} kp_counters;

void kp_counters_release(kp_counters *c);

#endif
