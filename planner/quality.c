/*
 * quality.c — plan_quality and plan_stranded for one run (quality.h).
 *
 * SQL over what the run just wrote (placement) and the node and pod tables
 * (unqualified, so a what-if run's temp copies are what it reads), in
 * queries/quality/: a few working tables in temp (setup.sql, dropped by
 * cleanup.sql) aggregate the placed pods per node and resource once, then one
 * INSERT ... SELECT fills each table (plan_quality.sql, plan_stranded.sql);
 * ?1 is the run, ?2 the pool label.  Definitions (docs/planning.md, "Plan quality"):
 *
 * - pool: the node's value of the pool label, '(none)' without it.
 * - placed pods: the run's keep, bind and move rows with a node.  Per-node
 *   pods (DaemonSet pods, pod.daemon_node, and static pods owned by a Node)
 *   exist because their node does: they are the node's overhead.  The others
 *   are the pool's "app pods".
 * - nodes_used: nodes of the pool holding at least one app pod.
 * - capacity of node n for resource r: allocatable minus the per-node pods'
 *   requests, or what the app pods there request when that is more (imported
 *   over-commitment, ignored resources), never below 0.  So on every used node
 *   the app pods' requests fit its capacity, which makes each bound below a
 *   lower bound on nodes_used:
 *   - requests:R: the fewest nodes of the pool whose capacities (largest
 *     first) add up to the app pods' total request of R (pods: the count);
 *     any set of nodes holding the pods has at least that much capacity, and
 *     no set of fewer nodes has;
 *   - large-pods:R: the app pods requesting more than half of the largest
 *     capacity of R in the pool: no two of them fit on one node;
 *   - anti-affinity:NS/NAME: the app pods of one class that its own required
 *     pod anti-affinity term selects (same namespace, no matchLabelKeys): no
 *     two may share a topology domain, so no two share a node.  Counted as the
 *     distinct nodes they are on, which is the group's size whenever the rule
 *     holds (imported bound pods that already break it count once per node);
 *   - requests:attach:DRIVER (setup.sql, from the planner's temp.kp_q_attach_in):
 *     CSI attach slots, where every node of the pool has a CSINode limit for
 *     the driver (a node without one has unbounded slots, which would make
 *     the sum unbounded: no bound then);
 *   - requests:device:DRIVER (devices.sql, only when the DRA tables exist):
 *     DRA devices, per driver — a DeviceClass selects devices by CEL, which
 *     SQL cannot evaluate, so which of a node's devices a class takes is not
 *     known here; the driver is the honest unit.  A node's devices: those of
 *     the node-local slices (nodeName; with perDeviceNodeSelection a
 *     device's nodeName) of each pool's newest generation — the allocator
 *     reads nothing else, so no plan gives pods on the node more of them,
 *     and a node without such a slice has none (it can hold none, a known
 *     0, unlike a node without an attach limit: every node of the pool
 *     reports its devices, so the bound needs no all-nodes condition).  The
 *     total: the node-local devices the app pods of the pool hold after the
 *     run (the run's dra_allocation rows and the imported results of
 *     allocated claims, admin access left out as it takes nothing), each
 *     device counted once, on the one node it is local to, where the pods
 *     holding it are.  Overhead: the node's other devices in use (per-node
 *     pods' claims, allocated claims of pods not placed there: the planner
 *     frees no allocation), as the per-node pods' requests are for R.  Network-attached devices (nodeSelector,
 *     allNodes) are reachable from many nodes: they are in neither the
 *     capacity nor the total.  So on every used node the devices its app
 *     pods hold are at most its capacity, and the argument of requests:R
 *     holds for the devices the pool's pods hold node-locally.  (Where a
 *     claim could have been served by network-attached devices or another
 *     firstAvailable subrequest, another plan may hold fewer node-local
 *     devices: the bound is on the nodes these allocations need.)
 *   - one-pod: 1 when the pool has an app pod.
 *   bound = the largest; bound_by names it (ties: requests, large pods,
 *   anti-affinity, one-pod; cpu, memory, then by name).
 * - stranded: on the used nodes, free = allocatable - every placed pod's
 *   requests (0 when over-committed).  Resource s is exhausted on a node when
 *   less of it is free than the smallest positive request of s among the
 *   pool's app pods (pod slots, attach slots, devices: none free).  The free amount of r on a node
 *   where some other resource is exhausted is stranded: no pod shaped like
 *   the pool's pods that needs the exhausted resource can use it.  One row per
 *   resource some pod placed in the pool requests (pod slots left out).
 */
#include "kp_queries.h"   /* the SQL of queries/, embedded at build time */
#include "quality.h"
#include "../common/db.h"

#include <string.h>

/* Run every statement of sql (one queries/quality/ file) in turn, each as
 * kp_db_exec runs one: ?1 the run, ?2 the pool label (a statement without
 * them binds nothing).  KP_OK, or KP_INTR / KP_BUSY / KP_NOMEM / KP_IO with
 * "WHAT: the SQLite message" in err. */
static int exec_all(sqlite3 *db, kp_err *err, const char *what, const char *sql, int64_t run_id, const char *pool_label)
{
	while (*sql) {
		sqlite3_stmt *s;
		const char *tail;
		int rc = sqlite3_prepare_v2(db, sql, -1, &s, &tail);
		if (rc == SQLITE_OK && !s)
			return KP_OK;   /* only comments or white space left */
		if (rc == SQLITE_OK) {
			sqlite3_bind_int64(s, 1, run_id);
			sqlite3_bind_text(s, 2, pool_label, -1, SQLITE_TRANSIENT);
			rc = sqlite3_step(s);
			sqlite3_finalize(s);
		}
		if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
			if (kp_interrupted || rc == SQLITE_INTERRUPT)
				return kp_err_set(err, KP_INTR, "%s: interrupted", what);
			return kp_err_set(err, rc == SQLITE_BUSY ? KP_BUSY : rc == SQLITE_NOMEM ? KP_NOMEM : KP_IO, "%s: %s",
					  what, sqlite3_errmsg(db));
		}
		sql = tail;
	}
	return KP_OK;
}

/* The schema's plan quality section (schema.sql, between its two markers):
 * CREATE TABLE IF NOT EXISTS, for databases made before it existed. */
static int ensure_tables(sqlite3 *db, kp_err *err)
{
	return kp_db_schema_section(db, "plan quality", "plan (plan quality tables)", err);
}

static const char *const dry_tables[] = { "run", "placement", "pod_failure", "eviction", "run_warning", "plan_quality",
					  "plan_stranded", "volume_decision", "dra_allocation" };

void kp_quality_dry_drop(sqlite3 *db)
{
	/* schema-qualified: an unqualified DROP would reach the main table */
	for (size_t i = 0; i < sizeof dry_tables / sizeof *dry_tables; i++) {
		char sql[96];
		snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS temp.%s", dry_tables[i]);
		sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
}

int kp_quality_dry_tables(sqlite3 *db, kp_err *err)
{
	kp_quality_dry_drop(db);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, kp_sql_quality_dry_table, -1, &s, NULL) != SQLITE_OK)
		return kp_err_set(err, KP_IO, "cannot plan (dry-run tables): %s", sqlite3_errmsg(db));
	int rc = KP_OK;
	for (size_t i = 0; i < sizeof dry_tables / sizeof *dry_tables && !rc; i++) {
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, dry_tables[i], -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_ROW)
			continue;   /* a database made before the table: kp_quality_write creates it */
		const char *sql = (const char *)sqlite3_column_text(s, 0);
		if (!sql || strncmp(sql, "CREATE TABLE ", 13))
			continue;
		sql += 13;
		if (!strncmp(sql, "IF NOT EXISTS ", 14))
			sql += 14;
		char *ddl = sqlite3_mprintf("CREATE TEMP TABLE %s", sql);
		if (!ddl)
			rc = kp_err_set(err, KP_NOMEM, "out of memory");
		else if (sqlite3_exec(db, ddl, NULL, NULL, NULL) != SQLITE_OK)
			rc = kp_err_set(err, KP_IO, "cannot plan (dry-run tables): %s", sqlite3_errmsg(db));
		sqlite3_free(ddl);
	}
	sqlite3_finalize(s);
	return rc;
}

/* the first column of sql's first row as an integer; 0 when it fails */
static int count_of(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* 1 when the plan quality tables of this connection are TEMP ones (a dry run) */
static int dry(sqlite3 *db)
{
	return count_of(db, kp_sql_quality_dry_check) == 2;
}

int kp_quality_write(sqlite3 *db, int64_t run_id, const char *pool_label, kp_err *err)
{
	if (!pool_label)
		pool_label = KP_QUALITY_POOL_LABEL;
	int rc = dry(db) ? KP_OK : ensure_tables(db, err);
	if (rc == KP_OK)
		rc = exec_all(db, err, "cannot write the plan (plan quality)", kp_sql_quality_cleanup, run_id, pool_label);
	if (rc == KP_OK)
		rc = exec_all(db, err, "cannot write the plan (plan quality)", kp_sql_quality_setup, run_id, pool_label);
	if (rc == KP_OK && count_of(db, kp_sql_quality_dra_check) == 1)   /* a database with the DRA tables */
		rc = exec_all(db, err, "cannot write the plan (plan quality, devices)", kp_sql_quality_devices, run_id,
			      pool_label);
	if (rc == KP_OK)
		rc = exec_all(db, err, "cannot write the plan (plan_quality)", kp_sql_quality_plan_quality, run_id,
			      pool_label);
	if (rc == KP_OK)
		rc = exec_all(db, err, "cannot write the plan (plan_stranded)", kp_sql_quality_plan_stranded, run_id,
			      pool_label);
	sqlite3_exec(db, kp_sql_quality_cleanup, NULL, NULL, NULL);
	return rc;
}
