/*
 * node_affinity.c — NodeAffinity (semantics §5.4, §7.8; plugins/nodeaffinity).
 * Filter: nodeSelector and required node affinity in SQL per class
 * (queries/filters/node_affinity.sql), plus the profile's
 * NodeAffinityArgs.addedAffinity here ("node(s) didn't match
 * scheduler-enforced node affinity").  Score: the sum of the weights of the
 * preferred terms (the pod's and the added ones) the node matches,
 * normalised to 0..100 by the maximum.
 */
#include "../cycle.h"

static int filter(kp_cycle *cy, int node)
{
	if (cy->has_added_req) {
		int ok = 0;
		for (uint32_t i = 0; i < cy->nadded_req && !ok; i++)
			ok = kp_nterm_matches(cy->s, &cy->added_req[i], node);
		if (!ok) {
			kp_cycle_fail(cy, node, KP_P_NODE_AFFINITY, cy->r_added_affinity, 1);
			return 1;
		}
	}
	return kp_static_filter(cy, node, KP_P_NODE_AFFINITY);
}

static int pre_score(kp_cycle *cy) { return cy->c->npreferred || cy->nadded_pref ? KP_OK : KP_SKIP; }

static int64_t score(kp_cycle *cy, int node)
{
	int64_t sum = 0;
	for (uint32_t i = 0; i < cy->c->npreferred; i++)
		if (kp_nterm_matches(cy->s, &cy->c->preferred[i], node))
			sum += cy->c->preferred[i].weight;
	for (uint32_t i = 0; i < cy->nadded_pref; i++)
		if (kp_nterm_matches(cy->s, &cy->added_pref[i], node))
			sum += cy->added_pref[i].weight;
	return sum;
}

static void normalize(kp_cycle *cy, int64_t *scores) { kp_default_normalize(cy, scores, 0); }

const kp_plugin kp_plugin_node_affinity = { KP_P_NODE_AFFINITY, NULL, filter, pre_score, score, normalize };
