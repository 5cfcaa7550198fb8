/*
 * test_tiebreak.c — the seeded tie-break (planner/cycle.c): kp_tiebreak and
 * its two-step form, the pod's half once and then each node
 * (kp_tiebreak_pod / kp_tiebreak_node, which the plan's best_node and the
 * node buckets use), equal the high 32 bits of kp_hash64 over the 16 bytes
 * { pod, node } for node ids of every size (the small ones take a shortcut
 * for the zero bytes), negative ones, and several seeds.  And
 * kp_tiebreak_pod_of: kube's per-pod order, or under --tie-break node-rank
 * (profile tie_rank) one ranking of the nodes that every pod shares.
 */
#include <stdint.h>

#include "../../common/kp.h"
#include "../../planner/cycle.h"
#include "tap.h"

static uint32_t reference(uint64_t seed, int64_t pod, int64_t node)
{
	int64_t k[2] = { pod, node };
	return (uint32_t)(kp_hash64(k, sizeof k, seed) >> 32);
}

int main(void)
{
	static const int64_t nodes[] = { 0, 1, 255, 256, 65535, 65536, (1 << 24) - 1, 1 << 24, INT32_MAX,
					 (int64_t)1 << 40, INT64_MAX, -1, INT64_MIN };
	static const uint64_t seeds[] = { 0, 1, 7, 0xffffffffffffffffULL };
	int all = 1, two = 1;
	uint64_t x = 12345;
	for (size_t si = 0; si < sizeof seeds / sizeof *seeds; si++)
		for (int i = 0; i < 2000; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			int64_t pod = (int64_t)(x >> 20);
			int64_t node = i < (int)(sizeof nodes / sizeof *nodes) ? nodes[i] : (int64_t)(x >> (i % 64));
			uint32_t want = reference(seeds[si], pod, node);
			all &= kp_tiebreak(seeds[si], pod, node) == want;
			two &= kp_tiebreak_node(kp_tiebreak_pod(seeds[si], pod), node) == want;
		}
	TAP_OK(all, "kp_tiebreak equals kp_hash64 of { pod, node } (8,000 pairs, 4 seeds)");
	TAP_OK(two, "kp_tiebreak_node(kp_tiebreak_pod()) equals it too");
	TAP_EQ_I64(kp_tiebreak(1, 42, 7) == kp_tiebreak(1, 42, 8), 0, "different nodes hash apart");
	TAP_EQ_I64(kp_tiebreak(1, 42, 7) == kp_tiebreak(2, 42, 7), 0, "different seeds hash apart");

	/* the node a pod takes among 64 tied nodes: the highest hash */
	kp_profile pf = { 0 };
	kp_cycle cy = { 0 };
	cy.pf = &pf;
	int first[2][2];   /* [tie_rank][seed 1, 2]: pod 1's node */
	int same[2] = { 1, 1 };
	for (int rank = 0; rank < 2; rank++) {
		pf.tie_rank = rank;
		for (int64_t pod = 1; pod <= 50; pod++)
			for (int sd = 0; sd < 2; sd++) {
				cy.seed = (uint64_t)sd + 1;
				uint64_t h = kp_tiebreak_pod_of(&cy, pod);
				int best = -1;
				uint32_t bt = 0;
				for (int n = 0; n < 64; n++)
					if (best < 0 || kp_tiebreak_node(h, n) > bt) {
						best = n;
						bt = kp_tiebreak_node(h, n);
					}
				if (pod == 1)
					first[rank][sd] = best;
				else
					same[rank] &= best == first[rank][sd];
			}
	}
	TAP_OK(same[1], "node-rank: every pod's tie goes to the same node of 64 (50 pods, 2 seeds)");
	TAP_OK(first[1][0] != first[1][1], "node-rank: another seed ranks another node first");
	TAP_OK(!same[0], "random (kube's): the tied node differs from pod to pod");
	pf.tie_rank = 0;
	cy.seed = 1;
	TAP_OK(kp_tiebreak_pod_of(&cy, 42) == kp_tiebreak_pod(1, 42), "random: kp_tiebreak_pod_of is kp_tiebreak_pod");
	return tap_done();
}
