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
 */
#ifndef KP_COUNTERS_H
#define KP_COUNTERS_H

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

typedef struct kp_counter {
	uint64_t hash;
	int32_t ns;              /* kp_sid */
	uint8_t terminating;     /* terminating pods count too (inter-pod affinity); not for spreading */
	struct kp_sel *sel;      /* persistent copy */
	int32_t *per_node;
} kp_counter;

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
