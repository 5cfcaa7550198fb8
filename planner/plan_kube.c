/*
 * plan_kube.c — the run warnings of the kube version planned as
 * (docs/kube-versions.md §6, kube.h): the input uses a feature whose gate is
 * off in the chosen version and gates, so the plan reads it as that
 * kube-scheduler does (ignored, or tolerating nothing), and names the gate.
 */
#include "plan_int.h"
#include "scores.h"   /* KP_TOL_NEVER */

#include <stdio.h>
#include <string.h>


static int has_never_toleration(const kp_class *c)
{
	for (uint32_t k = 0; k < c->ntols; k++)
		if (c->tols[k].cmp == KP_TOL_NEVER)
			return 1;
	return 0;
}

/* The features nodes declare (status.declaredFeatures) for which kplan
 * infers no pod requirement: kplan infers the registry's InferForScheduling
 * rules (importers/k8s_kube.c, common/kube.c kp_kube_ndf_minor), not the
 * update-only ones nor names it does not know, so a pod that needs another
 * is planned without that check.  The first few names into buf; how many
 * nodes declare one. */
static long uninferred_features(const kp_snap *s, char *buf, size_t size)
{
	long nodes = 0;
	size_t len = 0;
	int names = 0;
	buf[0] = 0;
	if (!s->nnode_features)
		return 0;
	for (int n = 0; n < s->nnodes; n++) {
		int other = 0;
		for (uint32_t j = 0; j < s->nnode_features[n]; j++) {
			const char *f = kp_str(&s->strs, s->node_features[n][j]);
			if (kp_kube_ndf_minor(f))
				continue;
			other = 1;
			if (strstr(buf, f))
				continue;
			if (names == 3 || len + strlen(f) + 8 >= size) {
				if (!strstr(buf, ", ..."))
					len += (size_t)snprintf(buf + len, size - len, ", ...");
				continue;
			}
			len += (size_t)snprintf(buf + len, size - len, "%s%s", names ? ", " : "", f);
			names++;
		}
		nodes += other;
	}
	return nodes;
}

void kp_plan_kube_warnings(const planner *pl, kp_plan_result *r, long claims)
{
	const kp_snap *s = &pl->s;
	const kp_kube *k = &s->kube;
	int minor = k->minor;
	long gtlt = 0, podlevel = 0, features = 0, resized = 0, unmodelled = 0;
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
			unmodelled += (c->kube_inputs & KP_KIN_RESIZE_UNMODELLED) != 0;
		}
	if (unmodelled && minor >= 36)
		kp_plan_warn(r, "resize-unmodelled: kube 1.%d: %ld bound pod(s) report resources in status for a non-sidecar "
			"init container or for the whole pod (status.resources), which kube 1.36+ may count (in-place resize of "
			"init containers and of pod-level resources); kplan counts their spec (docs/kube-versions.md §2)",
			minor, unmodelled);
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
		kp_plan_warn(r, "kube 1.%d: %ld pending pod(s) require node features (e.g. restartPolicyRules action "
			"RestartAllContainers), which the NodeDeclaredFeatures feature gate checks (off; on from 1.36): "
			"not checked", minor, features);
	char names[256];
	long declaring = kp_kube_on(k, KP_FG_NODE_DECLARED_FEATURES) ? uninferred_features(s, names, sizeof names) : 0;
	if (declaring)
		kp_plan_warn(r, "node-features: kube 1.%d: %ld node(s) declare features (%s) for which kplan infers no pod "
			"requirement (it infers the registry's scheduling rules, not its update-only ones): a pending pod that needs one is "
			"planned without NodeDeclaredFeatures' check of it (docs/kube-versions.md)", minor, declaring, names);
	if (claims && !kp_kube_on(k, KP_FG_DYNAMIC_RESOURCE_ALLOCATION))
		kp_plan_warn(r, "kube 1.%d: %ld pending pod(s) name ResourceClaims, which need the DynamicResourceAllocation "
			"feature gate (off; on from 1.34): the claims were ignored, as kube-scheduler without the "
			"DynamicResources plugin ignores them", minor, claims);
}
