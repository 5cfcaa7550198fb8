/*
 * http_extender.c — Extender, the name kube-scheduler gives the verdicts of
 * its HTTP extenders (framework.ExtenderName, "Extender":
 * kubernetes/kubernetes pkg/scheduler/schedule_one.go findNodesThatPassExtenders).
 * Not a plugin in kube, nor one a profile can name: the extenders are the
 * configuration's `extenders:` list (planner/http_extender.h), called by the
 * plan after every filter plugin passed a node and added to the scores
 * (planner/plan_extender.c).  The descriptor is here so that a node an
 * extender rejected reports this name, as the SQL extenders report theirs.
 */
#include "../cycle.h"

const kp_plugin kp_plugin_http_extender = {
	.name = "Extender",
	.kplan_own = 1,   /* not a kube plugin: enabled by the configuration's extenders */
};
