/*
 * node_affinity.c — NodeAffinity (kube-scheduler-semantics.md §5.4, §7.8; kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go).
 * Filter: nodeSelector and required node affinity in SQL per class
 * (queries/filters/node_affinity.sql), plus the profile's
 * NodeAffinityArgs.addedAffinity here ("node(s) didn't match
 * scheduler-enforced node affinity").  Score: the sum of the weights of the
 * preferred terms (the pod's and the added ones) the node matches,
 * normalised to 0..100 by the maximum.
 * PreFilter: when every required term has matchFields metadata.name In
 * [...], only the nodes named (the union over terms of each term's
 * intersection) are filtered; the others are "filtered out by the prefilter
 * result"; an empty union is the PreFilter failure "pod affinity terms
 * conflict" (node_affinity.go PreFilter, schedule_one.go findNodesThatFitPod).
 */
#include "../cycle.h"

static int in_vals(const kp_sreq *r, kp_sid v)
{
	for (uint32_t i = 0; i < r->nvals; i++)
		if (r->vals[i] == v)
			return 1;
	return 0;
}

static int pre_filter(kp_cycle *cy)
{
	const kp_class *c = cy->c;
	const kp_snap *s = cy->s;
	cy->restrict_nodes = 0;
	if (!c->has_required_affinity || !c->nrequired)
		return KP_OK;
	int any_name = 0;
	for (uint32_t t = 0; t < c->nrequired; t++) {
		const kp_nterm *term = &c->required[t];
		const kp_sreq *first = NULL;
		for (uint32_t f = 0; f < term->nfields && !first; f++)
			if (term->fields[f].op == KP_OP_IN)
				first = &term->fields[f];
		if (!first)
			return KP_OK;   /* a term without a name restriction: every node is eligible */
		/* the term's names: first In field's values present in every other In field */
		for (uint32_t v = 0; v < first->nvals && !any_name; v++) {
			int all = 1;
			for (uint32_t f = 0; f < term->nfields && all; f++)
				if (term->fields[f].op == KP_OP_IN)
					all = in_vals(&term->fields[f], first->vals[v]);
			any_name |= all;
		}
	}
	if (!any_name) {
		cy->prefilter_msg = "pod affinity terms conflict";
		cy->prefilter_plugin = KP_P_NODE_AFFINITY;
		return KP_PREFILTER_FAIL;
	}
	cy->restrict_nodes = 1;
	for (int n = 0; n < s->nnodes; n++) {
		int ok = 0;
		for (uint32_t t = 0; t < c->nrequired && !ok; t++) {
			const kp_nterm *term = &c->required[t];
			int in_all = 1;
			for (uint32_t f = 0; f < term->nfields && in_all; f++)
				if (term->fields[f].op == KP_OP_IN)
					in_all = in_vals(&term->fields[f], s->node_name[n]);
			ok = in_all;
		}
		cy->allowed[n] = (uint8_t)ok;
	}
	return KP_OK;
}

static int filter(kp_cycle *cy, int node)
{
	if (cy->has_added_req) {
		if (!kp_nterms_any(cy->s, cy->added_req, cy->nadded_req, node)) {
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

const kp_plugin kp_plugin_node_affinity = {
	.name = "NodeAffinity",
	.weight = 2,
	.local_filter = 1,
	.local_score = 1,
	.pre_filter = pre_filter,
	.filter = filter,
	.pre_score = pre_score,
	.score = score,
	.normalize = normalize,
};
