/*
 * priority_sort.c — PrioritySort, the QueueSort plugin (kube-scheduler-semantics.md §3;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/queuesort/priority_sort.go).
 * kube's Less: the higher priority first, then the earlier queue timestamp
 * (kplan: creationTimestamp).  The queue is the plan loop's
 * (planner/plan.c, queue_less), which also puts DaemonSet pods first and
 * breaks the ties kube leaves open by import order; this descriptor lets
 * profiles name the plugin (queueSort.enabled).
 */
#include "../cycle.h"

const kp_plugin kp_plugin_priority_sort = {
	.name = "PrioritySort",
};
