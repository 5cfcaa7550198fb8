/*
 * decisive.h — the decisive reasons of an unschedulable pod (issue 14):
 * the reasons of the nodes that pass every static filter (taints and
 * cordon, nodeSelector and node affinity: NodeUnschedulable, NodeName,
 * TaintToleration, NodeAffinity), or the static reasons when no node passes
 * them.  A taint on a node the pod never wanted is not why it is pending
 * when the nodes it could use are full.
 *
 * Kube reports one reason list per node, from the first failing filter
 * plugin, and the static plugins run first; so a pod_failure row is
 * decisive when its plugin is not static, or when every row of the pod is
 * static.  the run writer (plan_write.c) stores it in pod_failure.decisive; the
 * report's reasons chart counts pods by it; explain names them.
 */
#ifndef KP_DECISIVE_H
#define KP_DECISIVE_H

#include <sqlite3.h>
#include "../common/kp.h"

/* 1 when a reason of this filter plugin is a static one */
int kp_decisive_static_plugin(const char *plugin);
/* pod_failure.decisive for a row of plugin, given whether the pod has a row
 * of a plugin that is not static */
static inline int kp_decisive(const char *plugin, int any_dynamic)
{
	return any_dynamic ? !kp_decisive_static_plugin(plugin) : 1;
}
/* Add pod_failure.decisive to a database made before it (NULL in older runs:
 * the report then derives it from the plugin). */
int kp_decisive_schema(sqlite3 *db, kp_err *err);

#endif
