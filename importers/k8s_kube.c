/*
 * k8s_kube.c — the inputs of kube-scheduler's version-dependent rules
 * (docs/kube-versions.md), read here and applied by the planner per
 * version: a pod's pod-level resources (spec.resources, PodLevelResources
 * 1.34+), its containers' status resources and resize condition (in-place
 * resize, InPlacePodVerticalScaling 1.33+), the node features it requires
 * (NodeDeclaredFeatures 1.36+), and a node's status.declaredFeatures.
 */
#include "k8s_int.h"

#include <stdio.h>
#include <string.h>

static int cmp_str(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* spec.resources (pod level): requests and limits */
int kp_k8s_get_pod_resources(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	const kp_ynode *res;
	if (kp_k8s_get_map(c, spec, "resources", "spec.resources", &res) != KP_OK ||
	    kp_k8s_get_resources(c, res, "requests", "spec.resources.requests", &pod->pod_requests) != KP_OK ||
	    kp_k8s_get_resources(c, res, "limits", "spec.resources.limits", &pod->pod_limits) != KP_OK)
		return KP_PARSE;
	return KP_OK;
}

/* The node features a pod requires, as kube's node-declared-features
 * registry infers them for scheduling (component-helpers/
 * nodedeclaredfeatures/features; InferForPodScheduling).  kplan knows one
 * rule: RestartAllContainersOnContainerExits, required by a pod with a
 * container or init container whose restartPolicyRules has an entry with
 * action RestartAllContainers (features/restartallcontainers).  The other
 * features of the registry are not modelled (docs/kube-versions.md). */
int kp_k8s_infer_features(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const lists[] = { "containers", "initContainers" };
	int restart_all = 0;
	for (int l = 0; l < 2; l++) {
		const kp_ynode *seq = kp_ymap_get(spec, lists[l]);
		for (size_t i = 0; seq && seq->type == KP_Y_SEQ && i < seq->n; i++) {
			const kp_ynode *rules = kp_ymap_get(seq->u.items[i], "restartPolicyRules");
			for (size_t j = 0; rules && rules->type == KP_Y_SEQ && j < rules->n; j++) {
				const kp_ynode *act = kp_ymap_get(rules->u.items[j], "action");
				restart_all |= act && act->type == KP_Y_SCALAR && !strcmp(act->u.str, "RestartAllContainers");
			}
		}
	}
	if (!restart_all)
		return KP_OK;
	pod->features.v = kp_arena_alloc(c->a, sizeof *pod->features.v);
	if (!pod->features.v)
		return kp_k8s_nomem(c);
	pod->features.v[0] = "RestartAllContainersOnContainerExits";
	pod->features.n = 1;
	return KP_OK;
}

/* one of containerStatuses / initContainerStatuses: the entries with resources */
static int read_statuses(kctx *c, const kp_ynode *status, const char *key, int init, kp_pod_in *pod, size_t *k)
{
	const kp_ynode *seq;
	char p[PATHMAX], q[PATHMAX + 64];
	snprintf(p, sizeof p, "status.%s", key);
	if (kp_k8s_get_seq(c, status, key, p, &seq) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; seq && i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i], *res;
		snprintf(p, sizeof p, "status.%s[%zu]", key, i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
		snprintf(q, sizeof q, "%s.resources", p);
		if (kp_k8s_get_map(c, e, "resources", q, &res) != KP_OK)
			return KP_PARSE;
		if (!res)   /* helpers.go: only an entry with resources != nil counts */
			continue;
		kp_ctr_status *s = &pod->statuses[(*k)++];
		memset(s, 0, sizeof *s);
		s->init = init;
		snprintf(q, sizeof q, "%s.name", p);
		if (kp_k8s_get_str(c, e, "name", q, &s->name) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.resources.requests", p);
		if (kp_k8s_get_resources(c, res, "requests", q, &s->requests) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.allocatedResources", p);
		if (kp_k8s_get_resources(c, e, "allocatedResources", q, &s->allocated) != KP_OK)
			return KP_PARSE;
	}
	return KP_OK;
}

/* status.containerStatuses[] and initContainerStatuses[] with resources,
 * and the PodResizePending condition's reason Infeasible */
int kp_k8s_get_resize_status(kctx *c, const kp_ynode *status, kp_pod_in *pod)
{
	const kp_ynode *a = kp_ymap_get(status, "containerStatuses"), *b = kp_ymap_get(status, "initContainerStatuses");
	size_t cap = (a && a->type == KP_Y_SEQ ? a->n : 0) + (b && b->type == KP_Y_SEQ ? b->n : 0), k = 0;
	if (cap && !(pod->statuses = kp_arena_alloc(c->a, cap * sizeof *pod->statuses)))
		return kp_k8s_nomem(c);
	if (read_statuses(c, status, "containerStatuses", 0, pod, &k) != KP_OK ||
	    read_statuses(c, status, "initContainerStatuses", 1, pod, &k) != KP_OK)
		return KP_PARSE;
	pod->nstatuses = k;
	const kp_ynode *conds;
	if (kp_k8s_get_seq(c, status, "conditions", "status.conditions", &conds) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; conds && i < conds->n; i++) {
		const kp_ynode *t = kp_ymap_get(conds->u.items[i], "type"), *r = kp_ymap_get(conds->u.items[i], "reason");
		if (t && t->type == KP_Y_SCALAR && !strcmp(t->u.str, "PodResizePending") && r && r->type == KP_Y_SCALAR &&
		    !strcmp(r->u.str, "Infeasible"))
			pod->resize_infeasible = 1;
	}
	return KP_OK;
}

/* status.declaredFeatures of a node, sorted */
int kp_k8s_get_declared_features(kctx *c, const kp_ynode *status, kp_node_in *n)
{
	if (kp_k8s_get_strs(c, status, "declaredFeatures", "status.declaredFeatures", &n->declared_features) != KP_OK)
		return KP_PARSE;
	if (n->declared_features.n > 1)
		kp_sort(n->declared_features.v, n->declared_features.n, sizeof *n->declared_features.v, cmp_str, NULL);
	return KP_OK;
}
