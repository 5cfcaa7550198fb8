/*
 * test_counters.c — one topology counter's counts (planner/counters.h):
 * against a dense reference under random adds and removals, sparse entries
 * ascending by node and kept at 0, the turn to dense past
 * KP_COUNTER_SPARSE_MAX, iteration over the non-zero counts in node order,
 * scatter / unscatter into a per-node array, and an allocation failure
 * leaving the counter as it was.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/kp.h"
#include "../../planner/counters.h"
#include "tap.h"

/* the counter agrees with ref[] on every node, by count and by iteration */
static int same(const kp_counter *c, const int32_t *ref, int nnodes)
{
	for (int n = 0; n < nnodes; n++)
		if (kp_counter_count(c, n) != ref[n])
			return 0;
	int want = 0, prev = -1;
	kp_counter_it it;
	for (int ok = kp_counter_first(c, &it); ok; ok = kp_counter_next(c, &it)) {
		if (it.node <= prev || !it.count || ref[it.node] != it.count)
			return 0;
		prev = it.node;
		want++;
	}
	for (int n = 0; n < nnodes; n++)
		want -= ref[n] != 0;
	return want == 0;
}

int main(void)
{
	enum { NN = 1000 };
	int32_t ref[NN] = { 0 }, scratch[NN] = { 0 };
	kp_counter c;
	kp_counter_init(&c, NN);
	TAP_OK(same(&c, ref, NN), "empty: every count 0, nothing to iterate");
	TAP_OK(!kp_counter_dense(&c), "empty: sparse");

	/* sparse: adds in random node order, removals back to 0 */
	srand(7);
	int ok = 1;
	for (int i = 0; i < 300; i++) {
		int n = rand() % 90 * 11;   /* 90 distinct nodes, below the sparse maximum (125) */
		int d = ref[n] && rand() % 3 == 0 ? -1 : 1;
		ok &= kp_counter_add(&c, n, d) == KP_OK;
		ref[n] += d;
	}
	TAP_OK(ok, "sparse: 300 updates succeed");
	TAP_OK(!kp_counter_dense(&c), "sparse: 90 nodes stay sparse");
	TAP_OK(same(&c, ref, NN), "sparse: counts and iteration match a dense reference");
	int sorted = 1;
	for (int i = 1; i < c.n; i++)
		sorted &= c.e[i - 1].node < c.e[i].node;
	TAP_OK(sorted, "sparse: entries ascending by node");
	int with_zero = 0;
	for (int i = 0; i < c.n; i++)
		with_zero += c.e[i].count == 0;
	TAP_OK(with_zero > 0, "sparse: a node back at 0 keeps its entry (%d of them)", with_zero);

	/* scatter / unscatter */
	kp_counter_scatter(&c, scratch);
	TAP_OK(!memcmp(scratch, ref, sizeof ref), "scatter: the per-node array equals the counts");
	for (int i = 0; i < 20; i++) {   /* counts change in between: unscatter still clears */
		int n = c.e[i].node;
		int d = ref[n] ? -ref[n] : 2;
		kp_counter_add(&c, n, d);
		ref[n] += d;
	}
	kp_counter_unscatter(&c, scratch);
	int clear = 1;
	for (int n = 0; n < NN; n++)
		clear &= scratch[n] == 0;
	TAP_OK(clear, "unscatter: the per-node array is zero again");

	/* an allocation failure adding a new node: KP_NOMEM, the counter unchanged */
	kp_counter f;
	int32_t fref[NN] = { 0 };
	kp_counter_init(&f, NN);
	for (int n = 0; n < 4; n++) {   /* the first capacity, full */
		kp_counter_add(&f, n * 7, 1);
		fref[n * 7] = 1;
	}
	kp_alloc_fail_after(0);
	int rc = kp_counter_add(&f, 3, 1);
	kp_alloc_fail_after(-1);
	TAP_EQ_I64(rc, KP_NOMEM, "out of memory: KP_NOMEM");
	TAP_OK(f.n == 4 && same(&f, fref, NN), "out of memory: the counts are intact");
	TAP_EQ_I64(kp_counter_add(&f, 7, -1), KP_OK, "out of memory: going down needs no allocation");
	kp_free(f.e);

	/* past KP_COUNTER_SPARSE_MAX(1000) = 125 nodes: dense, same counts */
	ok = 1;
	for (int n = 0; n < NN; n += 3) {
		ok &= kp_counter_add(&c, n, 2) == KP_OK;
		ref[n] += 2;
	}
	TAP_OK(ok, "dense: updates succeed");
	TAP_OK(kp_counter_dense(&c) != NULL, "dense: turned dense past %d nodes", KP_COUNTER_SPARSE_MAX(NN));
	TAP_OK(same(&c, ref, NN), "dense: counts and iteration match a dense reference");
	kp_counter_scatter(&c, scratch);
	TAP_OK(!memcmp(scratch, ref, sizeof ref), "dense: scatter copies the counts");
	kp_counter_unscatter(&c, scratch);
	clear = 1;
	for (int n = 0; n < NN; n++)
		clear &= scratch[n] == 0;
	TAP_OK(clear, "dense: unscatter clears");
	TAP_EQ_I64(kp_counter_bytes(&c), NN * 4, "dense: 4 bytes a node");

	/* a tiny cluster never goes dense below 8 entries */
	kp_counter t;
	kp_counter_init(&t, 5);
	for (int n = 4; n >= 0; n--)
		kp_counter_add(&t, n, n + 1);
	TAP_OK(!kp_counter_dense(&t) && t.n == 5 && kp_counter_count(&t, 3) == 4, "5 nodes: sparse, counts right");
	kp_free(t.e);
	kp_free(c.e);
	kp_free(c.dense);
	return tap_done();
}
