/*
 * k8s_policy.c — the readers of the cluster's policy objects:
 * PriorityClass (refused where the API server refuses it, common/priority.h),
 * PodDisruptionBudget (minAvailable / maxUnavailable as an integer or a
 * percentage, its status), Service (its selector) and Namespace (its
 * labels), stored with the matching kp_import_* call.
 */
#include "k8s_int.h"
#include "../common/priority.h"

#include <stdio.h>
#include <string.h>

int kp_k8s_read_priority_class(kctx *c, const objhead *h)
{
	static const char *const preempt[] = { "PreemptLowerPriority", "Never", NULL };
	kp_priority_class_in pc;
	memset(&pc, 0, sizeof pc);
	pc.pos = (kp_pos){ h->obj->line, h->obj->col };
	pc.name = h->name;
	int has;
	if (kp_k8s_get_int(c, h->obj, "value", "value", &pc.value, &has) != KP_OK ||
	    kp_k8s_get_bool(c, h->obj, "globalDefault", "globalDefault", &pc.global_default) != KP_OK ||
	    kp_k8s_one_of(c, h->obj, "preemptionPolicy", "preemptionPolicy", preempt, &pc.preemption_policy) != KP_OK ||
	    kp_k8s_get_str(c, h->obj, "description", "description", &pc.description) != KP_OK)
		return KP_PARSE;
	if (!has)
		return kp_k8s_bad(c, h->obj, "value: required");
	if (pc.value < INT32_MIN || pc.value > INT32_MAX)
		return kp_k8s_bad(c, kp_ymap_get(h->obj, "value"), "value: out of the int32 range");
	char why[256];
	const char *f, *no = kp_priority_class_refused(pc.name, pc.value, pc.global_default, pc.preemption_policy, &f,
						       why, sizeof why);
	if (no)   /* the API server refuses it (common/priority.h) */
		return kp_k8s_bad(c, kp_ymap_get(strcmp(f, "name") ? h->obj : h->meta, f), "%s%s: %s",
				  strcmp(f, "name") ? "" : "metadata.", f, no);
	return kp_import_priority_class(c->imp, c->file, &pc, c->err);
}

static int int_or_percent(kctx *c, const kp_ynode *m, const char *key, const char *path, const char **out)
{
	const kp_ynode *v = kp_ymap_get(m, key);
	*out = NULL;
	if (!v)
		return KP_OK;
	if (v->type != KP_Y_SCALAR)
		return kp_k8s_bad(c, v, "%s: expected an integer or a percentage, got a %s", path, kp_ynode_type_name(v));
	const char *s = v->u.str;
	size_t n = strlen(s);
	int64_t x;
	int ok = (v->plain && kp_k8s_parse_int(s, &x) == 1 && x >= 0);
	if (!ok && n > 1 && s[n - 1] == '%') {
		char buf[32];
		if (n < sizeof buf) {
			memcpy(buf, s, n - 1);
			buf[n - 1] = 0;
			ok = kp_k8s_parse_int(buf, &x) == 1 && x >= 0 && buf[0] != '+' && buf[0] != '-';
		}
	}
	if (!ok)
		return kp_k8s_bad(c, v, "%s: expected a non-negative integer or a percentage like '50%%', got '%s'", path, s);
	*out = s;
	return KP_OK;
}

int kp_k8s_read_pdb(kctx *c, const objhead *h)
{
	kp_pdb_in d;
	memset(&d, 0, sizeof d);
	d.pos = (kp_pos){ h->obj->line, h->obj->col };
	d.namespace_ = h->namespace_;
	d.name = h->name;
	d.api_version = h->api_version;
	if (int_or_percent(c, h->spec, "minAvailable", "spec.minAvailable", &d.min_available) != KP_OK ||
	    int_or_percent(c, h->spec, "maxUnavailable", "spec.maxUnavailable", &d.max_unavailable) != KP_OK ||
	    kp_k8s_get_selector(c, h->spec, "selector", "spec.selector", &d.selector) != KP_OK)
		return KP_PARSE;
	if (d.min_available && d.max_unavailable)
		return kp_k8s_bad(c, h->spec, "spec: minAvailable and maxUnavailable cannot both be set");
	int has;
	if (h->status) {
		if (kp_k8s_get_int(c, h->status, "disruptionsAllowed", "status.disruptionsAllowed", &d.disruptions_allowed,
				   &has) != KP_OK)
			return KP_PARSE;
		/* v1beta1 before 1.21 called it podDisruptionsAllowed */
		if (!has && kp_k8s_get_int(c, h->status, "podDisruptionsAllowed", "status.podDisruptionsAllowed",
					   &d.disruptions_allowed, &has) != KP_OK)
			return KP_PARSE;
		d.has_status = has;
		if (kp_k8s_get_int(c, h->status, "currentHealthy", "status.currentHealthy", &d.current_healthy, NULL) != KP_OK ||
		    kp_k8s_get_int(c, h->status, "desiredHealthy", "status.desiredHealthy", &d.desired_healthy, NULL) != KP_OK ||
		    kp_k8s_get_int(c, h->status, "expectedPods", "status.expectedPods", &d.expected_pods, NULL) != KP_OK)
			return KP_PARSE;
		const kp_ynode *dp;
		if (kp_k8s_get_map(c, h->status, "disruptedPods", "status.disruptedPods", &dp) != KP_OK)
			return KP_PARSE;
		if (dp && dp->n) {
			d.disrupted_pods.v = kp_arena_alloc(c->a, dp->n * sizeof(char *));
			if (!d.disrupted_pods.v)
				return kp_k8s_nomem(c);
			for (size_t i = 0; i < dp->n; i++)
				d.disrupted_pods.v[i] = dp->u.pairs[i].key->u.str;
			d.disrupted_pods.n = dp->n;
		}
	}
	return kp_import_pdb(c->imp, c->file, &d, c->err);
}

int kp_k8s_read_service(kctx *c, const objhead *h)
{
	kp_service_in s;
	memset(&s, 0, sizeof s);
	s.pos = (kp_pos){ h->obj->line, h->obj->col };
	s.namespace_ = h->namespace_;
	s.name = h->name;
	s.has_selector = kp_ymap_get(h->spec, "selector") != NULL;
	if (kp_k8s_get_kvs(c, h->spec, "selector", "spec.selector", &s.selector) != KP_OK)
		return KP_PARSE;
	return kp_import_service(c->imp, c->file, &s, c->err);
}

int kp_k8s_read_namespace(kctx *c, const objhead *h)
{
	kp_namespace_in ns;
	memset(&ns, 0, sizeof ns);
	ns.pos = (kp_pos){ h->obj->line, h->obj->col };
	ns.name = h->name;
	if (kp_k8s_get_kvs(c, h->meta, "labels", "metadata.labels", &ns.labels) != KP_OK)
		return KP_PARSE;
	return kp_import_namespace(c->imp, c->file, &ns, c->err);
}

