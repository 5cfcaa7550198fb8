/*
 * node_declared_features.c — NodeDeclaredFeatures (kube 1.35+, in the
 * default profile from 1.36 with its gate; kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodedeclaredfeatures/
 * nodedeclaredfeatures.go, read in a 1.36 copy; docs/kube-versions.md §3).
 *
 * PreFilter: the node features the pod requires (InferForPodScheduling;
 * kplan infers them at import, importers/k8s_kube.c
 * kp_k8s_infer_features); none: Skip.  Filter: every one must be in the
 * node's status.declaredFeatures, else UnschedulableAndUnresolvable (never
 * preempts) with, in kube 1.35-1.36, "node declared features check failed -
 * unsatisfied requirements: A, B" (the missing ones, in the requirements'
 * sorted order), and from 1.37 "node(s) didn't match Pod's required
 * features".  With the gate off the plugin does nothing (New returns a
 * disabled plugin), also when a profile names it.
 */
#include "../cycle.h"
#include "../static.h"   /* kp_reason_intern */

#include <stdio.h>
#include <string.h>

static int pre_filter(kp_cycle *cy)
{
	if (!kp_kube_on(&cy->s->kube, KP_FG_NODE_DECLARED_FEATURES) || !cy->c->nfeatures)
		return KP_SKIP;
	return KP_OK;
}

static int declared(const kp_snap *s, int node, kp_sid f)
{
	for (uint32_t i = 0; i < s->nnode_features[node]; i++)
		if (s->node_features[node][i] == f)
			return 1;
	return 0;
}

static int filter(kp_cycle *cy, int node)
{
	kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	uint32_t first = 0;
	while (first < c->nfeatures && declared(s, node, c->features[first]))
		first++;
	if (first == c->nfeatures)
		return 0;
	/* the reason, for a node that fails only */
	char msg[1024];
	if (s->kube.minor >= 37) {
		snprintf(msg, sizeof msg, "node(s) didn't match Pod's required features");
	} else {
		size_t len = (size_t)snprintf(msg, sizeof msg, "node declared features check failed - unsatisfied requirements: ");
		for (uint32_t i = first, missing = 0; i < c->nfeatures; i++) {
			if (declared(s, node, c->features[i]) || len >= sizeof msg)
				continue;
			len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s", missing++ ? ", " : "",
						kp_str(&s->strs, c->features[i]));
		}
	}
	int r = kp_reason_intern(s, kp_plugin_names[KP_P_NODE_DECLARED_FEATURES], msg, 1);
	if (r >= 0)
		kp_cycle_fail(cy, node, KP_P_NODE_DECLARED_FEATURES, r, 1);
	return 1;
}

const kp_plugin kp_plugin_node_declared_features = {
	.name = "NodeDeclaredFeatures",
	.local_filter = 1,
	.pre_filter = pre_filter,
	.filter = filter,
};
