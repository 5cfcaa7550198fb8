/*
 * sql_extender.c — SQLExtender, kplan's own plugin (kube-scheduler has no
 * plugin by this name): the SQL extenders, the offline counterpart of
 * kube-scheduler's HTTP extenders (kubernetes/kubernetes
 * pkg/scheduler/extender.go).  After every filter plugin has passed a node,
 * a filter extender may still exclude the (pod, node) pair with its own
 * reason; a score extender adds weight x its 0..100 score.  The SQL runs once
 * per run, before the loop (planner/extender.c); here only lookups happen.
 * Extenders see the database as imported, not the placements of this run.
 */
#include "../cycle.h"

static const struct kp_ext_row *find(const kp_cycle *cy, int node)
{
	if (!cy->ext_off)
		return NULL;
	int32_t lo = cy->ext_off[cy->pi], hi = cy->ext_off[cy->pi + 1];
	while (lo < hi) {
		int32_t mid = (lo + hi) / 2;
		if (cy->ext_rows[mid].node < node)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cy->ext_off[cy->pi + 1] && cy->ext_rows[lo].node == node ? &cy->ext_rows[lo] : NULL;
}

static int filter(kp_cycle *cy, int node)
{
	const struct kp_ext_row *r = find(cy, node);
	if (r && r->reason >= 0) {
		kp_cycle_fail(cy, node, KP_P_SQL_EXTENDER, r->reason, 1);
		return 1;
	}
	return 0;
}

static int64_t score(kp_cycle *cy, int node)
{
	const struct kp_ext_row *r = find(cy, node);
	return r ? r->score : 0;
}

const kp_plugin kp_plugin_sql_extender = {
	.name = "SQLExtender",
	.kplan_own = 1,   /* not a kube plugin: enabled by pluginConfig KplanSQLExtenders */
	.filter = filter,
	.score = score,
};
