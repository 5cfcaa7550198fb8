/*
 * taint_toleration.c — TaintToleration (kube-scheduler-semantics.md §5.3, §7.7;
 * kubernetes/kubernetes pkg/scheduler/framework/plugins/tainttoleration/
 * taint_toleration.go).  Filter: the first NoSchedule/NoExecute taint no
 * toleration matches, in SQL per class (queries/filters/taint_toleration.sql).
 * Score: the number of PreferNoSchedule taints not tolerated by the pod's
 * tolerations whose effect is empty or PreferNoSchedule; normalised reversed
 * (fewest intolerable taints = 100).
 */
#include "../cycle.h"

static int filter(kp_cycle *cy, int node) { return kp_static_filter(cy, node, KP_P_TAINT_TOLERATION); }

static int64_t score(kp_cycle *cy, int node)
{
	const kp_snap *s = cy->s;
	const kp_class *c = cy->c;
	int64_t n = 0;
	for (uint32_t i = 0; i < s->ntaints[node]; i++) {
		const kp_taint *t = &s->taints[node][i];
		if (t->effect != KP_EFFECT_PREFER)
			continue;
		int tolerated = 0;
		for (uint32_t k = 0; k < c->ntols && !tolerated; k++)
			if (c->tols[k].effect == KP_EFFECT_ANY || c->tols[k].effect == KP_EFFECT_PREFER)
				tolerated = kp_tolerates(&c->tols[k], t);
		n += !tolerated;
	}
	return n;
}

static void normalize(kp_cycle *cy, int64_t *scores) { kp_default_normalize(cy, scores, 1); }

const kp_plugin kp_plugin_taint_toleration = {
	.name = "TaintToleration",
	.weight = 3,
	.local_filter = 1,
	.local_score = 1,
	.filter = filter,
	.score = score,
	.normalize = normalize,
};
