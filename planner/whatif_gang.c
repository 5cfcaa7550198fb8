/*
 * whatif_gang.c — add-pods of a spec in a scheduling group (docs/gangs.md):
 * when the Pod or the workload's pod template in `kplan capacity --pod FILE`
 * names a PodGroup (spec.schedulingGroup.podGroupName) of the cluster, the
 * copies come in gangs: each gang is a group of its own, with that
 * PodGroup's policy, of the workload's replicas (a Job: its parallelism) or,
 * for a Pod, of minCount copies.  temp.kp_whatif_gang lists each copy's gang
 * for the planner (plan_gang.c); the answer counts the gangs that bound.
 */
#include "whatif_int.h"

#include <stdio.h>
#include <string.h>

static const char *const gang_table =
	"CREATE TEMP TABLE IF NOT EXISTS kp_whatif_gang(pod_id INTEGER PRIMARY KEY, gang TEXT NOT NULL, "
	"min_count INTEGER NOT NULL, gang_size INTEGER NOT NULL)";

/* the spec's group in the file's database m (its pod id, or workload id) */
static int file_group(wctx *c, sqlite3 *m, int workload, int64_t id, char **group)
{
	sqlite3_stmt *s;
	*group = NULL;
	const char *sql = workload ? "SELECT pod_group FROM workload_scheduling_group WHERE workload_id = ?1 AND workload IS NULL"
				   : "SELECT pod_group FROM pod_scheduling_group WHERE pod_id = ?1 AND workload IS NULL";
	if (sqlite3_prepare_v2(m, sql, -1, &s, NULL) != SQLITE_OK)
		return KP_OK;   /* no Workload API tables: no group */
	sqlite3_bind_int64(s, 1, id);
	int rc = KP_OK;
	if (sqlite3_step(s) == SQLITE_ROW && !(*group = kp_strdup((const char *)sqlite3_column_text(s, 0))))
		rc = kp_err_set(c->err, KP_NOMEM, "out of memory");
	sqlite3_finalize(s);
	return rc;
}

int wi_gang_spec(wctx *c, wi_op *op, sqlite3 *m, int workload, int64_t id, const char *ns, wi_gang *g)
{
	memset(g, 0, sizeof *g);
	int rc = file_group(c, m, workload, id, &g->group);
	if (rc || !g->group)
		return rc;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT policy, min_count FROM pod_group WHERE namespace = ?1 AND name = ?2", -1, &s,
			       NULL) != SQLITE_OK)
		s = NULL;
	int found = 0;
	if (s) {
		sqlite3_bind_text(s, 1, ns, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, g->group, -1, SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_ROW) {
			found = 1;
			g->min_count = strcmp((const char *)sqlite3_column_text(s, 0), "gang") ? 1 : sqlite3_column_int64(s, 1);
		}
		sqlite3_finalize(s);
	}
	if (!found)
		return kp_err_set(c->err, KP_ERROR, "--pod '%s': its pods name the pod group %s/%s, which was not imported: "
				  "import that PodGroup (scheduling.k8s.io): the copies come in gangs like it (docs/gangs.md)",
				  op->file, ns, g->group);
	g->size = g->min_count;
	if (workload) {
		if (sqlite3_prepare_v2(m, "SELECT replicas FROM workload WHERE id = ?1", -1, &s, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(s, 1, id);
			if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int64(s, 0) > 0)
				g->size = sqlite3_column_int64(s, 0);
			sqlite3_finalize(s);
		}
	}
	if (g->size < 1)
		g->size = 1;
	g->on = 1;
	return wi_exec_all(c, "adding the copies' gangs", gang_table);
}

int wi_gang_add_pod(wctx *c, const wi_gang *g, const char *ns, int64_t pod_id, long made)
{
	if (!g->on)
		return KP_OK;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "INSERT INTO temp.kp_whatif_gang VALUES(?1, ?2, ?3, ?4)", -1, &s, NULL) != SQLITE_OK)
		return wi_db_fail(c, "adding a copy's gang");
	char key[1200];
	snprintf(key, sizeof key, "%s/%s (copy %ld)", ns, g->group, made / (long)g->size + 1);
	sqlite3_bind_int64(s, 1, pod_id);
	sqlite3_bind_text(s, 2, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(s, 3, g->min_count);
	sqlite3_bind_int64(s, 4, g->size);
	int rc = sqlite3_step(s) == SQLITE_DONE ? KP_OK : wi_db_fail(c, "adding a copy's gang");
	sqlite3_finalize(s);
	return rc;
}
