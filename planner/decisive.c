/*
 * decisive.c — which failure reasons decide an unschedulable pod (decisive.h).
 */
#include "decisive.h"
#include "profile.h"

#include <string.h>

int kp_decisive_static_plugin(const char *plugin)
{
	static const int statics[] = { KP_P_NODE_UNSCHEDULABLE, KP_P_NODE_NAME, KP_P_TAINT_TOLERATION, KP_P_NODE_AFFINITY };
	for (size_t i = 0; plugin && i < sizeof statics / sizeof *statics; i++)
		if (!strcmp(plugin, kp_plugin_names[statics[i]]))
			return 1;
	return 0;
}

int kp_decisive_schema(sqlite3 *db, kp_err *err)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT decisive FROM pod_failure LIMIT 0", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
		return KP_OK;
	}
	if (sqlite3_exec(db, "ALTER TABLE pod_failure ADD COLUMN decisive INTEGER", NULL, NULL, NULL) != SQLITE_OK)
		return kp_err_set(err, kp_interrupted ? KP_INTR : KP_IO, "cannot write the plan (pod_failure.decisive): %s",
				  sqlite3_errmsg(db));
	return KP_OK;
}
