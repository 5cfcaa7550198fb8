/*
 * k8s_podspec.c — the scheduling-relevant parts of a PodSpec (a Pod's or a
 * workload template's): node name, scheduler, priority, containers (app,
 * init, sidecar) with requests, limits and host ports, overhead, node
 * selector, tolerations, node and pod (anti-)affinity, topology spread
 * constraints, scheduling gates, volumes (k8s_storage.c) and resource claims
 * (k8s_dra_claims.c); and the controller
 * ownerReference of an object's metadata.
 *
 * Contract: kp_k8s_get_pod_spec() fills a kp_pod_in (model.h) in c->a,
 * checking operators, effects, weights (1..100), ports (0..65535) and
 * integer ranges as the API server does; paths start with "spec".  API
 * defaulting is applied where the scheduler sees it (hostNetwork host
 * ports); regular and sidecar containers' host ports are kept (kube-scheduler-semantics.md §5.5).
 */
#include "k8s_int.h"

#include <stdio.h>
#include <string.h>

static const char *const node_ops[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", NULL };

int kp_k8s_get_node_term(kctx *c, const kp_ynode *t, const char *path, kp_node_term *out)
{
	const kp_ynode *me, *mf;
	char p[PATHMAX + 32];
	if (t->type != KP_Y_MAP)
		return kp_k8s_bad(c, t, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(t));
	snprintf(p, sizeof p, "%s.matchExpressions", path);
	if (kp_k8s_get_seq(c, t, "matchExpressions", p, &me) != KP_OK ||
	    kp_k8s_get_reqs(c, me, p, node_ops, &out->exprs, &out->nexprs) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.matchFields", path);
	if (kp_k8s_get_seq(c, t, "matchFields", p, &mf) != KP_OK ||
	    kp_k8s_get_reqs(c, mf, p, node_ops, &out->fields, &out->nfields) != KP_OK)
		return KP_PARSE;
	for (size_t i = 0; i < out->nfields; i++)
		if (strcmp(out->fields[i].key, "metadata.name") != 0)
			return kp_k8s_bad(c, kp_ymap_get(mf->u.items[i], "key"),
					  "%s[%zu].key: only 'metadata.name' is supported in matchFields, got '%s'",
				   p, i, out->fields[i].key);
	return KP_OK;
}

static int get_node_affinity(kctx *c, const kp_ynode *na, kp_pod_in *pod)
{
	const kp_ynode *req, *terms, *pref;
	if (kp_k8s_get_map(c, na, "requiredDuringSchedulingIgnoredDuringExecution",
			   "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", &req) != KP_OK)
		return KP_PARSE;
	if (req) {
		pod->has_required_node_affinity = 1;
		if (kp_k8s_get_seq(c, req, "nodeSelectorTerms", "spec.affinity.nodeAffinity.required.nodeSelectorTerms",
				   &terms) != KP_OK)
			return KP_PARSE;
		if (terms && terms->n) {
			pod->required_terms = kp_arena_alloc(c->a, terms->n * sizeof *pod->required_terms);
			if (!pod->required_terms)
				return kp_k8s_nomem(c);
			for (size_t i = 0; i < terms->n; i++) {
				char p[PATHMAX];
				snprintf(p, sizeof p, "spec.affinity.nodeAffinity.required.nodeSelectorTerms[%zu]", i);
				if (kp_k8s_get_node_term(c, terms->u.items[i], p, &pod->required_terms[i]) != KP_OK)
					return KP_PARSE;
			}
			pod->nrequired = terms->n;
		}
	}
	if (kp_k8s_get_seq(c, na, "preferredDuringSchedulingIgnoredDuringExecution",
			   "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution", &pref) != KP_OK)
		return KP_PARSE;
	if (pref && pref->n) {
		pod->preferred_terms = kp_arena_alloc(c->a, pref->n * sizeof *pod->preferred_terms);
		if (!pod->preferred_terms)
			return kp_k8s_nomem(c);
		for (size_t i = 0; i < pref->n; i++) {
			const kp_ynode *e = pref->u.items[i], *pr;
			char p[PATHMAX], pw[PATHMAX + 16];
			snprintf(p, sizeof p, "spec.affinity.nodeAffinity.preferred[%zu]", i);
			if (e->type != KP_Y_MAP)
				return kp_k8s_bad(c, e, "%s: expected a mapping", p);
			kp_node_term *t = &pod->preferred_terms[i];
			int has_w;
			snprintf(pw, sizeof pw, "%s.weight", p);
			if (kp_k8s_get_int(c, e, "weight", pw, &t->weight, &has_w) != KP_OK)
				return KP_PARSE;
			if (!has_w || t->weight < 1 || t->weight > 100)
				return kp_k8s_bad(c, e, "%s.weight: must be in 1..100", p);
			snprintf(pw, sizeof pw, "%s.preference", p);
			if (kp_k8s_get_map(c, e, "preference", pw, &pr) != KP_OK)
				return KP_PARSE;
			if (!pr)
				return kp_k8s_bad(c, e, "%s.preference: required", p);
			if (kp_k8s_get_node_term(c, pr, pw, t) != KP_OK)
				return KP_PARSE;
			t->weight = t->weight;
		}
		pod->npreferred = pref->n;
	}
	return KP_OK;
}

static int get_pod_term(kctx *c, const kp_ynode *t, const char *path, kp_pod_term *out)
{
	char p[PATHMAX + 32];
	if (t->type != KP_Y_MAP)
		return kp_k8s_bad(c, t, "%s: expected a mapping, got a %s", path, kp_ynode_type_name(t));
	snprintf(p, sizeof p, "%s.topologyKey", path);
	if (kp_k8s_get_str(c, t, "topologyKey", p, &out->topology_key) != KP_OK)
		return KP_PARSE;
	if (!out->topology_key || !out->topology_key[0])
		return kp_k8s_bad(c, t, "%s.topologyKey: required", path);
	snprintf(p, sizeof p, "%s.labelSelector", path);
	if (kp_k8s_get_selector(c, t, "labelSelector", p, &out->selector) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.namespaces", path);
	if (kp_k8s_get_strs(c, t, "namespaces", p, &out->namespaces) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.namespaceSelector", path);
	if (kp_k8s_get_selector(c, t, "namespaceSelector", p, &out->ns_selector) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.matchLabelKeys", path);
	if (kp_k8s_get_strs(c, t, "matchLabelKeys", p, &out->match_label_keys) != KP_OK)
		return KP_PARSE;
	snprintf(p, sizeof p, "%s.mismatchLabelKeys", path);
	return kp_k8s_get_strs(c, t, "mismatchLabelKeys", p, &out->mismatch_label_keys);
}

static int get_pod_affinity(kctx *c, const kp_ynode *aff, kp_pod_in *pod)
{
	static const char *const kinds[2] = { "podAffinity", "podAntiAffinity" };
	size_t total = 0;
	const kp_ynode *pa[2], *req[2], *pref[2];
	for (int k = 0; k < 2; k++) {
		char p[PATHMAX];
		snprintf(p, sizeof p, "spec.affinity.%s", kinds[k]);
		if (kp_k8s_get_map(c, aff, kinds[k], p, &pa[k]) != KP_OK)
			return KP_PARSE;
		char pr[PATHMAX + 64];
		snprintf(pr, sizeof pr, "%s.requiredDuringSchedulingIgnoredDuringExecution", p);
		if (kp_k8s_get_seq(c, pa[k], "requiredDuringSchedulingIgnoredDuringExecution", pr, &req[k]) != KP_OK)
			return KP_PARSE;
		snprintf(pr, sizeof pr, "%s.preferredDuringSchedulingIgnoredDuringExecution", p);
		if (kp_k8s_get_seq(c, pa[k], "preferredDuringSchedulingIgnoredDuringExecution", pr, &pref[k]) != KP_OK)
			return KP_PARSE;
		total += (req[k] ? req[k]->n : 0) + (pref[k] ? pref[k]->n : 0);
	}
	if (!total)
		return KP_OK;
	pod->pod_terms = kp_arena_alloc(c->a, total * sizeof *pod->pod_terms);
	if (!pod->pod_terms)
		return kp_k8s_nomem(c);
	size_t n = 0;
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; req[k] && i < req[k]->n; i++) {
			char p[PATHMAX];
			snprintf(p, sizeof p, "spec.affinity.%s.required[%zu]", kinds[k], i);
			kp_pod_term *t = &pod->pod_terms[n++];
			t->anti = k;
			t->required = 1;
			if (get_pod_term(c, req[k]->u.items[i], p, t) != KP_OK)
				return KP_PARSE;
		}
		for (size_t i = 0; pref[k] && i < pref[k]->n; i++) {
			const kp_ynode *e = pref[k]->u.items[i], *term;
			char p[PATHMAX], pw[PATHMAX + 32];
			snprintf(p, sizeof p, "spec.affinity.%s.preferred[%zu]", kinds[k], i);
			if (e->type != KP_Y_MAP)
				return kp_k8s_bad(c, e, "%s: expected a mapping", p);
			kp_pod_term *t = &pod->pod_terms[n++];
			t->anti = k;
			int has_w;
			snprintf(pw, sizeof pw, "%s.weight", p);
			if (kp_k8s_get_int(c, e, "weight", pw, &t->weight, &has_w) != KP_OK)
				return KP_PARSE;
			if (!has_w || t->weight < 1 || t->weight > 100)
				return kp_k8s_bad(c, e, "%s.weight: must be in 1..100", p);
			snprintf(pw, sizeof pw, "%s.podAffinityTerm", p);
			if (kp_k8s_get_map(c, e, "podAffinityTerm", pw, &term) != KP_OK)
				return KP_PARSE;
			if (!term)
				return kp_k8s_bad(c, e, "%s.podAffinityTerm: required", p);
			if (get_pod_term(c, term, pw, t) != KP_OK)
				return KP_PARSE;
		}
	}
	pod->npod_terms = n;
	return KP_OK;
}

static int get_spreads(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const when[] = { "DoNotSchedule", "ScheduleAnyway", NULL };
	static const char *const policy[] = { "Honor", "Ignore", NULL };
	const kp_ynode *seq;
	if (kp_k8s_get_seq(c, spec, "topologySpreadConstraints", "spec.topologySpreadConstraints", &seq) != KP_OK)
		return KP_PARSE;
	if (!seq || !seq->n)
		return KP_OK;
	pod->spreads = kp_arena_alloc(c->a, seq->n * sizeof *pod->spreads);
	if (!pod->spreads)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_spread *s = &pod->spreads[i];
		char p[PATHMAX], q[PATHMAX + 32];
		snprintf(p, sizeof p, "spec.topologySpreadConstraints[%zu]", i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping", p);
		int has;
		snprintf(q, sizeof q, "%s.maxSkew", p);
		if (kp_k8s_get_int(c, e, "maxSkew", q, &s->max_skew, &has) != KP_OK)
			return KP_PARSE;
		if (!has || s->max_skew < 1)
			return kp_k8s_bad(c, has ? kp_ymap_get(e, "maxSkew") : e, "%s.maxSkew: must be at least 1", p);
		snprintf(q, sizeof q, "%s.topologyKey", p);
		if (kp_k8s_get_str(c, e, "topologyKey", q, &s->topology_key) != KP_OK)
			return KP_PARSE;
		if (!s->topology_key || !s->topology_key[0])
			return kp_k8s_bad(c, e, "%s.topologyKey: required", p);
		snprintf(q, sizeof q, "%s.whenUnsatisfiable", p);
		if (kp_k8s_one_of(c, e, "whenUnsatisfiable", q, when, &s->when_unsatisfiable) != KP_OK)
			return KP_PARSE;
		if (!s->when_unsatisfiable)
			return kp_k8s_bad(c, e, "%s.whenUnsatisfiable: required", p);
		snprintf(q, sizeof q, "%s.labelSelector", p);
		if (kp_k8s_get_selector(c, e, "labelSelector", q, &s->selector) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.minDomains", p);
		if (kp_k8s_get_int(c, e, "minDomains", q, &s->min_domains, &has) != KP_OK)
			return KP_PARSE;
		if (has && s->min_domains < 1)
			return kp_k8s_bad(c, kp_ymap_get(e, "minDomains"), "%s.minDomains: must be at least 1", p);
		if (has && strcmp(s->when_unsatisfiable, "DoNotSchedule") != 0)
			return kp_k8s_bad(c, kp_ymap_get(e, "minDomains"),
					  "%s.minDomains: only allowed with whenUnsatisfiable DoNotSchedule", p);
		snprintf(q, sizeof q, "%s.nodeAffinityPolicy", p);
		if (kp_k8s_one_of(c, e, "nodeAffinityPolicy", q, policy, &s->node_affinity_policy) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.nodeTaintsPolicy", p);
		if (kp_k8s_one_of(c, e, "nodeTaintsPolicy", q, policy, &s->node_taints_policy) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.matchLabelKeys", p);
		if (kp_k8s_get_strs(c, e, "matchLabelKeys", q, &s->match_label_keys) != KP_OK)
			return KP_PARSE;
	}
	pod->nspreads = seq->n;
	return KP_OK;
}

static int get_tolerations(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	/* Gt, Lt: TaintTolerationComparisonOperators (1.35+); the planner applies the gate */
	static const char *const ops[] = { "Equal", "Exists", "Gt", "Lt", NULL };
	static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute", NULL };
	const kp_ynode *seq;
	if (kp_k8s_get_seq(c, spec, "tolerations", "spec.tolerations", &seq) != KP_OK)
		return KP_PARSE;
	if (!seq || !seq->n)
		return KP_OK;
	pod->tolerations = kp_arena_alloc(c->a, seq->n * sizeof *pod->tolerations);
	if (!pod->tolerations)
		return kp_k8s_nomem(c);
	for (size_t i = 0; i < seq->n; i++) {
		const kp_ynode *e = seq->u.items[i];
		kp_toleration *t = &pod->tolerations[i];
		char p[PATHMAX], q[PATHMAX + 32];
		snprintf(p, sizeof p, "spec.tolerations[%zu]", i);
		if (e->type != KP_Y_MAP)
			return kp_k8s_bad(c, e, "%s: expected a mapping", p);
		snprintf(q, sizeof q, "%s.key", p);
		if (kp_k8s_get_str(c, e, "key", q, &t->key) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.operator", p);
		if (kp_k8s_one_of(c, e, "operator", q, ops, &t->op) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.value", p);
		if (kp_k8s_get_str(c, e, "value", q, &t->value) != KP_OK)
			return KP_PARSE;
		snprintf(q, sizeof q, "%s.effect", p);
		if (kp_k8s_one_of(c, e, "effect", q, effects, &t->effect) != KP_OK)
			return KP_PARSE;
		int has;
		t->seconds = INT64_MIN;
		snprintf(q, sizeof q, "%s.tolerationSeconds", p);
		if (kp_k8s_get_int(c, e, "tolerationSeconds", q, &t->seconds, &has) != KP_OK)
			return KP_PARSE;
		if (!has)
			t->seconds = INT64_MIN;
		int exists = t->op && !strcmp(t->op, "Exists");
		if (exists && t->value && t->value[0])
			return kp_k8s_bad(c, kp_ymap_get(e, "value"), "%s.value: must be empty when operator is Exists", p);
		if ((!t->key || !t->key[0]) && !exists)
			return kp_k8s_bad(c, e, "%s.operator: must be Exists when key is empty", p);
	}
	pod->ntolerations = seq->n;
	return KP_OK;
}

static int get_containers(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const protocols[] = { "TCP", "UDP", "SCTP", NULL };
	const kp_ynode *apps, *inits;
	if (kp_k8s_get_seq(c, spec, "containers", "spec.containers", &apps) != KP_OK ||
	    kp_k8s_get_seq(c, spec, "initContainers", "spec.initContainers", &inits) != KP_OK)
		return KP_PARSE;
	size_t n = (apps ? apps->n : 0) + (inits ? inits->n : 0);
	if (!apps || !apps->n)
		return kp_k8s_bad(c, spec, "spec.containers: a pod needs at least one container");
	pod->containers = kp_arena_alloc(c->a, n * sizeof *pod->containers);
	if (!pod->containers)
		return kp_k8s_nomem(c);
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++) {
		const kp_ynode *seq = pass == 0 ? inits : apps;
		const char *what = pass == 0 ? "spec.initContainers" : "spec.containers";
		for (size_t i = 0; seq && i < seq->n; i++) {
			const kp_ynode *e = seq->u.items[i], *res, *ports;
			kp_container *ct = &pod->containers[k++];
			char p[PATHMAX], q[PATHMAX + 64];
			snprintf(p, sizeof p, "%s[%zu]", what, i);
			if (e->type != KP_Y_MAP)
				return kp_k8s_bad(c, e, "%s: expected a mapping, got a %s", p, kp_ynode_type_name(e));
			snprintf(q, sizeof q, "%s.name", p);
			if (kp_k8s_get_str(c, e, "name", q, &ct->name) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.image", p);
			if (kp_k8s_get_str(c, e, "image", q, &ct->image) != KP_OK)
				return KP_PARSE;
			ct->kind = pass == 1 ? KP_CONTAINER_APP : KP_CONTAINER_INIT;
			if (pass == 0) {
				const char *rp;
				snprintf(q, sizeof q, "%s.restartPolicy", p);
				if (kp_k8s_get_str(c, e, "restartPolicy", q, &rp) != KP_OK)
					return KP_PARSE;
				if (rp && !strcmp(rp, "Always"))
					ct->kind = KP_CONTAINER_SIDECAR;
				else if (rp)
					return kp_k8s_bad(c, kp_ymap_get(e, "restartPolicy"), "%s: only 'Always' is allowed, got '%s'", q, rp);
			}
			snprintf(q, sizeof q, "%s.resources", p);
			if (kp_k8s_get_map(c, e, "resources", q, &res) != KP_OK)
				return KP_PARSE;
			char r[PATHMAX + 96];
			snprintf(r, sizeof r, "%s.resources.requests", p);
			if (kp_k8s_get_resources(c, res, "requests", r, &ct->requests) != KP_OK)
				return KP_PARSE;
			snprintf(r, sizeof r, "%s.resources.limits", p);
			if (kp_k8s_get_resources(c, res, "limits", r, &ct->limits) != KP_OK)
				return KP_PARSE;
			snprintf(q, sizeof q, "%s.ports", p);
			if (kp_k8s_get_seq(c, e, "ports", q, &ports) != KP_OK)
				return KP_PARSE;
			size_t np = 0;
			for (size_t j = 0; ports && j < ports->n; j++) {
				const kp_ynode *pe = ports->u.items[j];
				char pp[PATHMAX + 96], pq[PATHMAX + 128];
				snprintf(pp, sizeof pp, "%s.ports[%zu]", p, j);
				if (pe->type != KP_Y_MAP)
					return kp_k8s_bad(c, pe, "%s: expected a mapping", pp);
				kp_port port = { 0 };
				int has;
				snprintf(pq, sizeof pq, "%s.containerPort", pp);
				if (kp_k8s_get_int(c, pe, "containerPort", pq, &port.container_port, &has) != KP_OK)
					return KP_PARSE;
				snprintf(pq, sizeof pq, "%s.hostPort", pp);
				if (kp_k8s_get_int(c, pe, "hostPort", pq, &port.host_port, &has) != KP_OK)
					return KP_PARSE;
				if (port.host_port < 0 || port.host_port > 65535 || port.container_port < 0 ||
				    port.container_port > 65535)
					return kp_k8s_bad(c, pe, "%s: port out of range 0..65535", pp);
				/* API defaulting: with hostNetwork the host port is the container port */
				if (pod->host_network && !port.host_port && ct->kind != KP_CONTAINER_INIT)
					port.host_port = port.container_port;
				snprintf(pq, sizeof pq, "%s.protocol", pp);
				if (kp_k8s_one_of(c, pe, "protocol", pq, protocols, &port.protocol) != KP_OK)
					return KP_PARSE;
				snprintf(pq, sizeof pq, "%s.hostIP", pp);
				if (kp_k8s_get_str(c, pe, "hostIP", pq, &port.host_ip) != KP_OK)
					return KP_PARSE;
				/* kube-scheduler-semantics.md §5.5: regular containers' host ports count, and
				 * sidecars' from kube 1.34 (stored marked, the planner applies the version) */
				if (port.host_port > 0 && ct->kind != KP_CONTAINER_INIT) {
					if (!ct->ports) {
						ct->ports = kp_arena_alloc(c->a, ports->n * sizeof *ct->ports);
						if (!ct->ports)
							return kp_k8s_nomem(c);
					}
					ct->ports[np++] = port;
				}
			}
			ct->nports = np;
		}
	}
	/* spec order: init containers first, then app containers */
	pod->ncontainers = n;
	return KP_OK;
}

/* The scheduling-relevant parts of a PodSpec; path prefix is "spec". */
int kp_k8s_get_pod_spec(kctx *c, const kp_ynode *spec, kp_pod_in *pod)
{
	static const char *const preempt[] = { "PreemptLowerPriority", "Never", NULL };
	const kp_ynode *aff, *na, *gates, *vols;
	int has;
	if (!spec)
		return kp_k8s_bad(c, NULL, "spec: required");
	if (kp_k8s_get_str(c, spec, "nodeName", "spec.nodeName", &pod->node_name) != KP_OK ||
	    kp_k8s_get_str(c, spec, "schedulerName", "spec.schedulerName", &pod->scheduler_name) != KP_OK ||
	    kp_k8s_get_int(c, spec, "priority", "spec.priority", &pod->priority, &has) != KP_OK ||
	    kp_k8s_get_str(c, spec, "priorityClassName", "spec.priorityClassName", &pod->priority_class) != KP_OK ||
	    kp_k8s_one_of(c, spec, "preemptionPolicy", "spec.preemptionPolicy", preempt, &pod->preemption_policy) != KP_OK ||
	    kp_k8s_get_bool(c, spec, "hostNetwork", "spec.hostNetwork", &pod->host_network) != KP_OK)
		return KP_PARSE;
	pod->has_priority = has;
	if (has && (pod->priority < INT32_MIN || pod->priority > INT32_MAX))
		return kp_k8s_bad(c, kp_ymap_get(spec, "priority"), "spec.priority: out of the int32 range");
	if (pod->node_name && !pod->node_name[0])
		pod->node_name = NULL;
	if (pod->priority_class && !pod->priority_class[0])
		pod->priority_class = NULL;
	if (kp_k8s_get_seq(c, spec, "schedulingGates", "spec.schedulingGates", &gates) != KP_OK ||
	    kp_k8s_get_seq(c, spec, "volumes", "spec.volumes", &vols) != KP_OK)
		return KP_PARSE;
	pod->scheduling_gates = gates ? (int)gates->n : 0;
	for (size_t i = 0; vols && i < vols->n; i++)
		if (kp_ymap_get(vols->u.items[i], "persistentVolumeClaim") || kp_ymap_get(vols->u.items[i], "ephemeral"))
			pod->pvc_volumes++;
	if (kp_k8s_get_volumes(c, vols, pod) != KP_OK)
		return KP_PARSE;
	if (kp_k8s_get_resources(c, spec, "overhead", "spec.overhead", &pod->overhead) != KP_OK ||
	    kp_k8s_get_kvs(c, spec, "nodeSelector", "spec.nodeSelector", &pod->node_selector) != KP_OK ||
	    get_tolerations(c, spec, pod) != KP_OK || get_containers(c, spec, pod) != KP_OK ||
	    kp_k8s_get_pod_claims(c, spec, pod) != KP_OK || get_spreads(c, spec, pod) != KP_OK ||
	    kp_k8s_get_sched_group(c, spec, pod) != KP_OK ||
	    kp_k8s_get_pod_resources(c, spec, pod) != KP_OK || kp_k8s_infer_features(c, spec, pod) != KP_OK)
		return KP_PARSE;
	if (kp_k8s_get_map(c, spec, "affinity", "spec.affinity", &aff) != KP_OK)
		return KP_PARSE;
	if (aff) {
		if (kp_k8s_get_map(c, aff, "nodeAffinity", "spec.affinity.nodeAffinity", &na) != KP_OK)
			return KP_PARSE;
		if (na && get_node_affinity(c, na, pod) != KP_OK)
			return KP_PARSE;
		if (get_pod_affinity(c, aff, pod) != KP_OK)
			return KP_PARSE;
	}
	return KP_OK;
}

int kp_k8s_get_owner(kctx *c, const kp_ynode *meta, kp_owner *out)
{
	const kp_ynode *refs;
	memset(out, 0, sizeof *out);
	if (kp_k8s_get_seq(c, meta, "ownerReferences", "metadata.ownerReferences", &refs) != KP_OK)
		return KP_PARSE;
	/* only the controller reference (controller: true) makes an owner */
	const kp_ynode *pick = NULL;
	for (size_t i = 0; refs && i < refs->n; i++) {
		const kp_ynode *r = refs->u.items[i];
		int ctl = 0;
		if (r->type != KP_Y_MAP)
			return kp_k8s_bad(c, r, "metadata.ownerReferences[%zu]: expected a mapping", i);
		if (kp_k8s_get_bool(c, r, "controller", "metadata.ownerReferences.controller", &ctl) != KP_OK)
			return KP_PARSE;
		if (ctl && !pick)
			pick = r;
	}
	if (!pick)
		return KP_OK;
	if (kp_k8s_get_str(c, pick, "kind", "metadata.ownerReferences.kind", &out->kind) != KP_OK ||
	    kp_k8s_get_str(c, pick, "name", "metadata.ownerReferences.name", &out->name) != KP_OK ||
	    kp_k8s_get_str(c, pick, "uid", "metadata.ownerReferences.uid", &out->uid) != KP_OK)
		return KP_PARSE;
	return KP_OK;
}

