/*
 * node_unschedulable.c — NodeUnschedulable (kube-scheduler-semantics.md §5.1;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/nodeunschedulable/
 * node_unschedulable.go).  A cordoned node fails
 * pods that do not tolerate node.kubernetes.io/unschedulable:NoSchedule:
 * "node(s) were unschedulable", UnschedulableAndUnresolvable.  Evaluated in
 * SQL once per class (queries/filters/node_unschedulable.sql).
 */
#include "../cycle.h"

static int filter(kp_cycle *cy, int node) { return kp_static_filter(cy, node, KP_P_NODE_UNSCHEDULABLE); }

const kp_plugin kp_plugin_node_unschedulable = {
	.name = "NodeUnschedulable",
	.local_filter = 1,
	.filter = filter,
};
