/*
 * k8s_gang.c — the Workload API of scheduling.k8s.io (docs/gangs.md):
 * Workload (v1alpha1 of kube 1.35: spec.podGroups; v1alpha2 of 1.36 and
 * v1beta1 of 1.37: spec.podGroupTemplates), PodGroup (v1alpha2, v1beta1;
 * its template named by spec.podGroupTemplateRef.workload in v1alpha2 and
 * by spec.workloadRef in v1beta1, either form read in both) and a pod's
 * scheduling group (spec.schedulingGroup.podGroupName; 1.35's
 * spec.workloadRef).  Refused as the API server refuses them: a policy
 * with neither or both of basic and gang, a minCount below 1.
 */
#include "k8s_int.h"

#include <stdio.h>
#include <string.h>

/* out = a + b, cut to PATHMAX */
static void join(char out[PATHMAX], const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	if (na > PATHMAX - 1)
		na = PATHMAX - 1;
	if (nb > PATHMAX - 1 - na)
		nb = PATHMAX - 1 - na;
	memcpy(out, a, na);
	memcpy(out + na, b, nb);
	out[na + nb] = 0;
}

/* policy {basic: {}} | {gang: {minCount}} at m[key] (path for messages) */
static int get_policy(kctx *c, const kp_ynode *m, const char *key, const char *path, kp_pod_group_in *g)
{
	const kp_ynode *pol, *basic, *gang;
	char p[PATHMAX];
	if (kp_k8s_get_map(c, m, key, path, &pol) != KP_OK)
		return KP_PARSE;
	if (!pol)
		return kp_k8s_bad(c, m, "%s: required", path);
	join(p, path, ".basic");
	if (kp_k8s_get_map(c, pol, "basic", p, &basic) != KP_OK)
		return KP_PARSE;
	join(p, path, ".gang");
	if (kp_k8s_get_map(c, pol, "gang", p, &gang) != KP_OK)
		return KP_PARSE;
	if (!basic == !gang)
		return kp_k8s_bad(c, pol, "%s: exactly one of basic and gang must be set", path);
	g->gang = gang != NULL;
	g->min_count = 1;
	if (!gang)
		return KP_OK;
	int has;
	join(p, path, ".gang.minCount");
	if (kp_k8s_get_int(c, gang, "minCount", p, &g->min_count, &has) != KP_OK)
		return KP_PARSE;
	if (!has)
		return kp_k8s_bad(c, gang, "%s: required", p);
	if (g->min_count < 1 || g->min_count > INT32_MAX)
		return kp_k8s_bad(c, kp_ymap_get(gang, "minCount"), "%s: must be greater than or equal to 1 (an int32)", p);
	return KP_OK;
}

/* disruptionMode {single: {}} | {all: {}} -> "Single" / "All" */
static int get_disruption(kctx *c, const kp_ynode *m, const char *path, const char **out)
{
	const kp_ynode *d;
	*out = NULL;
	if (kp_k8s_get_map(c, m, "disruptionMode", path, &d) != KP_OK)
		return KP_PARSE;
	if (!d)
		return KP_OK;
	int single = kp_ymap_get(d, "single") != NULL, all = kp_ymap_get(d, "all") != NULL;
	if (single == all)
		return kp_k8s_bad(c, d, "%s: exactly one of single and all must be set", path);
	*out = single ? "Single" : "All";
	return KP_OK;
}

/* the fields a PodGroup and a pod group template share (path: "spec" or
 * "spec.podGroupTemplates[i]") */
static int get_group_fields(kctx *c, const kp_ynode *m, const char *path, int v1alpha1, kp_pod_group_in *g)
{
	char p[PATHMAX];
	int has = 0;
	join(p, path, v1alpha1 ? ".policy" : ".schedulingPolicy");
	if (get_policy(c, m, v1alpha1 ? "policy" : "schedulingPolicy", p, g) != KP_OK)
		return KP_PARSE;
	if (v1alpha1)
		return KP_OK;
	join(p, path, ".disruptionMode");
	if (get_disruption(c, m, p, &g->disruption_mode) != KP_OK)
		return KP_PARSE;
	join(p, path, ".priorityClassName");
	if (kp_k8s_get_str(c, m, "priorityClassName", p, &g->priority_class) != KP_OK)
		return KP_PARSE;
	join(p, path, ".priority");
	if (kp_k8s_get_int(c, m, "priority", p, &g->priority, &has) != KP_OK)
		return KP_PARSE;
	g->has_priority = has;
	const kp_ynode *sc, *topo;
	join(p, path, ".schedulingConstraints");
	if (kp_k8s_get_map(c, m, "schedulingConstraints", p, &sc) != KP_OK)
		return KP_PARSE;
	if (!sc)
		return KP_OK;
	/* v1beta1: topology[].key; v1alpha2: topologyConstraints[].topologyKey */
	int beta = kp_ymap_get(sc, "topology") != NULL;
	join(p, path, beta ? ".schedulingConstraints.topology" : ".schedulingConstraints.topologyConstraints");
	if (kp_k8s_get_seq(c, sc, beta ? "topology" : "topologyConstraints", p, &topo) != KP_OK)
		return KP_PARSE;
	if (topo && topo->n) {
		strncat(p, "[0]", sizeof p - strlen(p) - 1);
		if (topo->u.items[0]->type != KP_Y_MAP)
			return kp_k8s_bad(c, topo->u.items[0], "%s: expected a mapping", p);
		if (kp_k8s_get_str(c, topo->u.items[0], beta ? "key" : "topologyKey", p, &g->topology_key) != KP_OK)
			return KP_PARSE;
	}
	return KP_OK;
}

static int check_version(kctx *c, const objhead *h, int *v1alpha1)
{
	const char *v = h->api_version ? h->api_version + strlen("scheduling.k8s.io/") : "v1beta1";
	*v1alpha1 = !strcmp(v, "v1alpha1");
	if (!strcmp(v, "v1beta1") || !strcmp(v, "v1alpha2") || (*v1alpha1 && !strcmp(h->kind, "Workload")))
		return KP_OK;
	return kp_k8s_bad(c, kp_ymap_get(h->obj, "apiVersion"),
			  "apiVersion: %s %s is not supported (kplan reads Workload of scheduling.k8s.io/v1alpha1 "
			  "(kube 1.35), v1alpha2 (1.36) and v1beta1 (1.37), PodGroup of v1alpha2 and v1beta1)",
			  h->api_version, h->kind);
}

int kp_k8s_read_pod_group(kctx *c, const objhead *h)
{
	int v1alpha1;
	if (check_version(c, h, &v1alpha1) != KP_OK)
		return KP_PARSE;
	kp_pod_group_in g;
	memset(&g, 0, sizeof g);
	g.pos = (kp_pos){ h->obj->line, h->obj->col };
	g.namespace_ = h->namespace_;
	g.name = h->name;
	g.api_version = h->api_version ? h->api_version : "scheduling.k8s.io/v1beta1";
	if (!h->spec)
		return kp_k8s_bad(c, h->obj, "spec: required");
	const kp_ynode *ref, *wref, *inner = NULL;
	if (kp_k8s_get_map(c, h->spec, "workloadRef", "spec.workloadRef", &wref) != KP_OK ||
	    kp_k8s_get_map(c, h->spec, "podGroupTemplateRef", "spec.podGroupTemplateRef", &ref) != KP_OK)
		return KP_PARSE;
	if (ref && wref)
		return kp_k8s_bad(c, wref, "spec.workloadRef: spec.podGroupTemplateRef is set too (the v1alpha2 form "
				  "of the same reference): give one");
	if (wref && (kp_k8s_get_str(c, wref, "workloadName", "spec.workloadRef.workloadName", &g.workload_name) ||
		     kp_k8s_get_str(c, wref, "templateName", "spec.workloadRef.templateName", &g.template_name)))
		return KP_PARSE;
	if (ref && kp_k8s_get_map(c, ref, "workload", "spec.podGroupTemplateRef.workload", &inner) != KP_OK)
		return KP_PARSE;
	if (inner && (kp_k8s_get_str(c, inner, "workloadName", "spec.podGroupTemplateRef.workload.workloadName",
				     &g.workload_name) ||
		      kp_k8s_get_str(c, inner, "podGroupTemplateName",
				     "spec.podGroupTemplateRef.workload.podGroupTemplateName", &g.template_name)))
		return KP_PARSE;
	if (get_group_fields(c, h->spec, "spec", 0, &g) != KP_OK)
		return KP_PARSE;
	return kp_import_pod_group(c->imp, c->file, &g, c->err);
}

int kp_k8s_read_sched_workload(kctx *c, const objhead *h)
{
	int v1alpha1;
	if (check_version(c, h, &v1alpha1) != KP_OK)
		return KP_PARSE;
	kp_sched_workload_in w;
	memset(&w, 0, sizeof w);
	w.pos = (kp_pos){ h->obj->line, h->obj->col };
	w.namespace_ = h->namespace_;
	w.name = h->name;
	w.api_version = h->api_version ? h->api_version : "scheduling.k8s.io/v1beta1";
	if (!h->spec)
		return kp_k8s_bad(c, h->obj, "spec: required");
	const kp_ynode *cref, *tmpls;
	if (kp_k8s_get_map(c, h->spec, "controllerRef", "spec.controllerRef", &cref) != KP_OK)
		return KP_PARSE;
	if (cref && (kp_k8s_get_str(c, cref, "kind", "spec.controllerRef.kind", &w.controller_kind) ||
		     kp_k8s_get_str(c, cref, "name", "spec.controllerRef.name", &w.controller_name)))
		return KP_PARSE;
	const char *key = v1alpha1 ? "podGroups" : "podGroupTemplates";
	char path[PATHMAX];
	snprintf(path, sizeof path, "spec.%s", key);
	if (kp_k8s_get_seq(c, h->spec, key, path, &tmpls) != KP_OK)
		return KP_PARSE;
	if (!tmpls || !tmpls->n)
		return kp_k8s_bad(c, tmpls ? tmpls : h->spec, "%s: required", path);
	if (tmpls->n > 8)
		return kp_k8s_bad(c, tmpls, "%s: must have at most 8 items", path);
	w.templates = kp_arena_alloc(c->a, tmpls->n * sizeof *w.templates);
	if (!w.templates)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < tmpls->n; i++) {
		const kp_ynode *t = tmpls->u.items[i];
		kp_pod_group_in *g = &w.templates[i];
		memset(g, 0, sizeof *g);
		snprintf(path, sizeof path, "spec.%s[%zu]", key, i);
		if (t->type != KP_Y_MAP)
			return kp_k8s_bad(c, t, "%s: expected a mapping", path);
		char np[PATHMAX];
		join(np, path, ".name");
		if (kp_k8s_get_str(c, t, "name", np, &g->name) != KP_OK)
			return KP_PARSE;
		if (!g->name || !g->name[0])
			return kp_k8s_bad(c, t, "%s: required", np);
		for (size_t k = 0; k < i; k++)
			if (!strcmp(w.templates[k].name, g->name))
				return kp_k8s_bad(c, kp_ymap_get(t, "name"), "%s: duplicate value '%s'", np, g->name);
		if (get_group_fields(c, t, path, v1alpha1, g) != KP_OK)
			return KP_PARSE;
	}
	w.ntemplates = tmpls->n;
	return kp_import_sched_workload(c->imp, c->file, &w, c->err);
}

int kp_k8s_get_sched_group(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	const kp_ynode *sg, *wr;
	if (kp_k8s_get_map(c, spec, "schedulingGroup", "spec.schedulingGroup", &sg) != KP_OK ||
	    kp_k8s_get_map(c, spec, "workloadRef", "spec.workloadRef", &wr) != KP_OK)
		return KP_PARSE;
	if (sg && wr)
		return kp_k8s_bad(c, wr, "spec.workloadRef: spec.schedulingGroup is set too (workloadRef is the kube 1.35 "
				  "form, schedulingGroup the 1.36 one): give one");
	if (sg) {
		if (kp_k8s_get_str(c, sg, "podGroupName", "spec.schedulingGroup.podGroupName", &pod->pod_group) != KP_OK)
			return KP_PARSE;
		if (!pod->pod_group || !pod->pod_group[0])
			return kp_k8s_bad(c, sg, "spec.schedulingGroup.podGroupName: required");
	}
	if (wr) {
		if (kp_k8s_get_str(c, wr, "name", "spec.workloadRef.name", &pod->workload_ref) != KP_OK ||
		    kp_k8s_get_str(c, wr, "podGroup", "spec.workloadRef.podGroup", &pod->pod_group) != KP_OK ||
		    kp_k8s_get_str(c, wr, "podGroupReplicaKey", "spec.workloadRef.podGroupReplicaKey",
				   &pod->workload_replica_key) != KP_OK)
			return KP_PARSE;
		if (!pod->workload_ref || !pod->workload_ref[0])
			return kp_k8s_bad(c, wr, "spec.workloadRef.name: required");
		if (!pod->pod_group || !pod->pod_group[0])
			return kp_k8s_bad(c, wr, "spec.workloadRef.podGroup: required");
		if (pod->workload_replica_key && !pod->workload_replica_key[0])
			pod->workload_replica_key = NULL;
	}
	return KP_OK;
}
