/*
 * dra_memo.c — DynamicResources Filter's memo (issue 18): the structured
 * allocator's verdict for one node and one pod's claims, kept until a device
 * that node sees changes.
 *
 * The verdict depends only on the specs of the claims to allocate (their
 * requests and constraints, which claims made from one template share) and
 * on the state of the devices the node sees (in use, consumed capacity,
 * pool counters).  So a pod whose claims are all unallocated, and which
 * asks no DRA-backed extended resource, is keyed by its claims' specs in
 * order; a node's entries stay valid while its generation and the run's
 * global one are unchanged.  Reserve and release bump the generation of the
 * node a node-local device belongs to, and the global one for any other
 * device (network-attached, or in a pool with shared counters).  On openb,
 * 7,064 GPU pods of 24 shapes meet 1,213 nodes: the allocator runs once
 * per (shape, node state) instead of once per (pod, node).
 * `plan --reference` turns the memo off (kp_dra.no_memo).
 */
#include "dra_int.h"
#include "../common/kp.h"
#include "cycle.h"   /* kp_dmap */

#include <string.h>

#define MEMO_SLOTS 32          /* per node, direct-mapped by the key's dense index */

const char *const kp_dra_msgs[KP_DRA_NMSGS] = {
	"cannot allocate all claims", "invalid resource pools were encountered", "resourceclaim not available on the node",
};


static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

/* the pod's key, 0 when the memo does not apply */
static uint64_t pod_key(const kp_snap *s, const kp_dra *d, int32_t pi)
{
	if (d->ext_off && d->ext_off[s->pods[pi].cls + 1] > d->ext_off[s->pods[pi].cls])
		return 0;
	uint64_t h = 0x8f1bbcdcbfa53e0bull;
	int32_t n = 0;
	for (int32_t k = d->claim_off[pi]; k < d->claim_off[pi + 1]; k++) {
		int32_t ci = d->claim[k];
		if (ci < 0 || d->claims[ci].allocated || d->claims[ci].run_allocated)
			return 0;
		int dup = 0;
		for (int32_t j = d->claim_off[pi]; j < k && !dup; j++)
			dup = d->claim[j] == ci;
		if (dup)
			continue;
		const kp_dclaim *c = &d->claims[ci];
		h = mix(h, (uint64_t)(uintptr_t)c->requests);
		h = mix(h, (uint64_t)(uintptr_t)c->constraints);
		h = mix(h, ((uint64_t)c->nrequests << 32) | c->nconstraints);
		n++;
	}
	return n ? (h | 1) : 0;
}

/* the pod's key, computed once per pod until its claims change (memo_pi) */
static uint64_t key_of(kp_dra *d, const kp_snap *s, int32_t pi)
{
	if (d->memo_pi != pi + 1) {
		d->memo_key = pod_key(s, d, pi);
		d->memo_pi = pi + 1;
		d->memo_hot_pi = 0;
	}
	return d->memo_key;
}

/* the memo's row for the pod's key: slot-major, so one pod's lookups over
 * the nodes read one contiguous row; a key's slot is its dense index (in
 * order of first use) modulo MEMO_SLOTS, so up to MEMO_SLOTS shapes of
 * claims never evict one another */
static kp_dmemo *memo_row(kp_dra *d, const kp_snap *s, uint64_t key)
{
	if (!d->memo || !d->node_gen || !d->memo_ids) {
		/* the rows, then per node its generation and the global one its entries were made at */
		if (!d->memo)
			d->memo = kp_calloc(MEMO_SLOTS * ((size_t)s->nnodes + 1), sizeof(kp_dmemo));
		if (!d->node_gen)
			d->node_gen = kp_calloc((size_t)s->nnodes + 1, 2 * sizeof *d->node_gen);
		if (!d->memo_ids && (d->memo_ids = kp_calloc(1, sizeof(kp_dmap))) && kp_dmap_init(d->memo_ids, 64)) {
			kp_dmap_release(d->memo_ids);
			kp_free(d->memo_ids);
			d->memo_ids = NULL;
		}
		if (!d->memo || !d->node_gen || !d->memo_ids)
			return NULL;
		d->memo_key_id = 0;
	}
	if (d->memo_key_id != key) {
		int64_t *id = kp_dmap_get(d->memo_ids, (int64_t)key);
		if (!id) {
			if (!(id = kp_dmap_put(d->memo_ids, (int64_t)key)))
				return NULL;
			*id = (int64_t)d->memo_ids->n - 1;
		}
		d->memo_key_id = key;
		d->memo_slot = (int32_t)(*id % MEMO_SLOTS);
	}
	return &d->memo[(size_t)d->memo_slot * ((size_t)s->nnodes + 1)];
}

int kp_dra_memo_get(kp_dra *d, const kp_snap *s, int32_t pi, int n, uint64_t *key, int *result, const char **msg)
{
	*key = 0;
	if (d->no_memo || !(*key = key_of(d, s, pi)))
		return 0;
	const kp_dmemo *row = memo_row(d, s, *key);
	if (!row)
		return 0;
	/* the pod's row for kp_dra_memo_hot, until its key changes */
	d->memo_hot = row;
	d->memo_hot_key = *key;
	d->memo_hot_pi = pi + 1;
	const kp_dmemo *m = &row[n];
	if (m->key != *key || m->node_gen != d->node_gen[2 * n] || d->node_gen[2 * n + 1] != d->gen)
		return 0;
	*result = m->result;
	*msg = m->msg >= 0 ? kp_dra_msgs[m->msg] : NULL;
	return 1;
}

void kp_dra_memo_put(kp_dra *d, const kp_snap *s, int32_t pi, int n, uint64_t key, int result, const char *msg)
{
	if (!key || !d->memo || !d->node_gen || key_of(d, s, pi) != key)
		return;
	int8_t k = -1;
	for (int8_t j = 0; msg && j < KP_DRA_NMSGS && k < 0; j++)
		if (msg == kp_dra_msgs[j])
			k = j;
	if (msg && k < 0)
		return;   /* a message of its own (an error): not kept */
	kp_dmemo *row = memo_row(d, s, key);
	if (!row)
		return;
	if (d->node_gen[2 * n + 1] != d->gen) {
		/* a global change since the node's entries were made: all stale */
		for (int j = 0; j < MEMO_SLOTS; j++)
			d->memo[(size_t)j * ((size_t)s->nnodes + 1) + (size_t)n].key = 0;
		d->node_gen[2 * n + 1] = d->gen;
	}
	row[n] = (kp_dmemo){ key, d->node_gen[2 * n], (int8_t)result, k };
}

void kp_dra_touched(kp_dra *d, int32_t dev)
{
	d->memo_pi = 0;   /* a claim may have changed with the device */
	const kp_device *v = &d->devices[dev];
	int32_t node = kp_dra_device_node(d, v);
	if (node >= 0 && !d->pools[v->pool].ncounters && d->node_gen)
		d->node_gen[2 * node]++;
	else
		d->gen++;
}
