/*
 * plan_kube.c — the run warnings of the kube version planned as
 * (docs/kube-versions.md §6, kube.h): the input uses a feature whose gate is
 * off in the chosen version and gates, so the plan reads it as that
 * kube-scheduler does (ignored, or tolerating nothing), and names the gate.
 */
#include "plan_int.h"
#include "scores.h"   /* KP_TOL_NEVER */

#include <stdio.h>


static int has_never_toleration(const kp_class *c)
{
	for (uint32_t k = 0; k < c->ntols; k++)
		if (c->tols[k].cmp == KP_TOL_NEVER)
			return 1;
	return 0;
}

void kp_plan_kube_warnings(const planner *pl, kp_plan_result *r, long claims)
{
	const kp_snap *s = &pl->s;
	const kp_kube *k = &s->kube;
	int minor = k->minor;
	long gtlt = 0, podlevel = 0, features = 0, resized = 0;
	for (int q = 0; q < pl->nqueue; q++) {
		const kp_class *c = &s->classes[s->pods[pl->queue[q]].cls];
		gtlt += has_never_toleration(c);
		podlevel += (c->kube_inputs & KP_KIN_POD_LEVEL) != 0;
		features += c->nfeatures > 0;
	}
	for (int i = 0; i < s->npods; i++)
		if (s->pods[i].orig_node >= 0 && !s->pods[i].ignored) {
			const kp_class *c = &s->classes[s->pods[i].cls];
			resized += (c->kube_inputs & KP_KIN_RESIZE) != 0;
			podlevel += (c->kube_inputs & KP_KIN_POD_LEVEL) != 0;
		}
	if (gtlt)
		kp_plan_warn(r, "kube 1.%d: %ld pending pod(s) have Gt/Lt tolerations, which need the "
			"TaintTolerationComparisonOperators feature gate (off): they tolerate no taint, as kube-scheduler "
			"reads them with the gate off (the API server would refuse such pods; --feature-gates "
			"TaintTolerationComparisonOperators=true plans them as a cluster with it on)", minor, gtlt);
	if (podlevel && !kp_kube_on(k, KP_FG_POD_LEVEL_RESOURCES))
		kp_plan_warn(r, "kube 1.%d: %ld pod(s) set pod-level resources (spec.resources), which need the PodLevelResources "
			"feature gate (off; on from 1.34): their containers' requests were counted", minor, podlevel);
	if (resized && !kp_kube_on(k, KP_FG_IN_PLACE_POD_VERTICAL_SCALING))
		kp_plan_warn(r, "kube 1.%d: %ld bound pod(s) report resized resources in status, which need the "
			"InPlacePodVerticalScaling feature gate (off; on from 1.33): their spec requests were counted", minor,
		     resized);
	if (features && !kp_kube_on(k, KP_FG_NODE_DECLARED_FEATURES))
		kp_plan_warn(r, "kube 1.%d: %ld pending pod(s) require node features (restartPolicyRules action "
			"RestartAllContainers), which the NodeDeclaredFeatures feature gate checks (off; on from 1.36): "
			"not checked", minor, features);
	if (claims && !kp_kube_on(k, KP_FG_DYNAMIC_RESOURCE_ALLOCATION))
		kp_plan_warn(r, "kube 1.%d: %ld pending pod(s) name ResourceClaims, which need the DynamicResourceAllocation "
			"feature gate (off; on from 1.34): the claims were ignored, as kube-scheduler without the "
			"DynamicResources plugin ignores them", minor, claims);
}
