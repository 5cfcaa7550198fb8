/*
 * dynamic_resources.c — DynamicResources (kube-scheduler-semantics.md §16;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/
 * dynamicresources.go, tests dynamicresources_test.go; the allocator
 * staging/src/k8s.io/dynamic-resource-allocation/structured).
 *
 * PreFilter: the pod's claims must exist (a template's claim generated and
 * owned by the pod), not be being deleted, and name DeviceClasses that exist;
 * a pod without claims skips the plugin.  Filter (the last filter, as in
 * kube's profile): the structured allocator finds devices for the claims
 * not yet allocated ("cannot allocate all claims"), and allocated claims
 * must fit the node ("resourceclaim not available on the node").  Every
 * rejection is UnschedulableAndUnresolvable, so preemption never frees
 * devices (1.35–1.37 with default gates, §16.7).  Reserve is dra.c's
 * kp_dra_reserve, called when the plan binds the pod.  Not run: Score
 * (firstAvailable preferences, 1.35+), DynamicResources' PostFilter message.
 */
#include "../cycle.h"
#include "../dra.h"
#include "../static.h"   /* kp_reason_intern */

static int pre_filter(kp_cycle *cy)
{
	/* DynamicResourceAllocation off (before 1.34): New returns a disabled
	 * plugin that skips, also when a profile names it; the pod's claims are
	 * ignored, as kube-scheduler ignores them (plan.c warns) */
	if (!kp_kube_on(&cy->s->kube, KP_FG_DYNAMIC_RESOURCE_ALLOCATION))
		return KP_SKIP;
	const char *msg = NULL;
	int rc = kp_dra_prefilter(cy, &msg);
	if (rc == KP_PREFILTER_FAIL) {
		cy->prefilter_msg = msg;
		cy->prefilter_plugin = KP_P_DYNAMIC_RESOURCES;
	}
	return rc;
}

static int filter(kp_cycle *cy, int node)
{
	/* the memo's verdict inline (most calls), else the full Filter */
	int hot = cy->s->dra ? kp_dra_memo_hot(cy->s->dra, cy->pi, node) : -1;
	if (hot == 0)
		return 0;
	const char *msg = hot > 0 ? kp_dra_msgs[hot - 1] : NULL;
	int rc = hot > 0 ? 1 : kp_dra_filter(cy, node, &msg);
	if (rc <= 0)
		return 0;   /* out of memory (rc < 0) shows again when the plan writes */
	/* the reasons are a few fixed messages (kp_dra_msgs): each one's index is
	 * interned once; an allocator error is interned each time */
	kp_dra *d = cy->s->dra;
	int j = 0;
	while (j < KP_DRA_NMSGS && msg != kp_dra_msgs[j])
		j++;
	int r = d && j < KP_DRA_NMSGS ? d->reason_idx[j] : -1;
	if (r < 0) {
		r = kp_reason_intern(cy->s, kp_plugin_names[KP_P_DYNAMIC_RESOURCES], msg, 1);
		if (d && j < KP_DRA_NMSGS)
			d->reason_idx[j] = r;
	}
	if (r >= 0)
		kp_cycle_fail(cy, node, KP_P_DYNAMIC_RESOURCES, r, 1);
	return 1;
}

const kp_plugin kp_plugin_dynamic_resources = {
	.name = "DynamicResources",
	.pre_filter = pre_filter,
	.filter = filter,
};
