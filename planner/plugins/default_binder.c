/*
 * default_binder.c — DefaultBinder, the Bind plugin
 * (kubernetes/kubernetes pkg/scheduler/framework/plugins/defaultbinder/default_binder.go).
 * kube posts a Binding to the API server; kplan binds in its snapshot, so
 * that the next cycle sees the pod on its node (planner/plan_cycle.c, kp_plan_bind_pod),
 * and writes the placement to the run's plan.  The descriptor is here so
 * that profiles can name the plugin.
 */
#include "../cycle.h"

const kp_plugin kp_plugin_default_binder = {
	.name = "DefaultBinder",
};
