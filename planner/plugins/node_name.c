/*
 * node_name.c — NodeName (kube-scheduler-semantics.md §5.2; kubernetes/kubernetes
 * pkg/scheduler/framework/plugins/nodename/node_name.go).  A pod whose
 * spec.nodeName is set is bound by the kubelet, not scheduled: kplan treats
 * it as already bound (keep), so among the pods kplan schedules none names a
 * node and this filter passes every node.  It is listed so that profiles that
 * enable or disable it are read correctly.
 */
#include "../cycle.h"

static int filter(kp_cycle *cy, int node)
{
	(void)cy;
	(void)node;
	return 0;   /* pending pods have no spec.nodeName (see above) */
}

const kp_plugin kp_plugin_node_name = {
	.name = "NodeName",
	.local_filter = 1,
	.filter = filter,
};
