/*
 * quality.c — plan_quality and plan_stranded for one run (quality.h).
 *
 * SQL over what the run just wrote (placement) and the node and pod tables
 * (unqualified, so a what-if run's temp copies are what it reads): a few
 * working tables in temp aggregate the placed pods per node and resource once,
 * then one INSERT ... SELECT fills each table; ?1 is the run, ?2 the pool
 * label.  Definitions (README "Plan quality"):
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
 *   - one-pod: 1 when the pool has an app pod.
 *   bound = the largest; bound_by names it (ties: requests, large pods,
 *   anti-affinity, one-pod; cpu, memory, then by name).
 * - stranded: on the used nodes, free = allocatable - every placed pod's
 *   requests (0 when over-committed).  Resource s is exhausted on a node when
 *   less of it is free than the smallest positive request of s among the
 *   pool's app pods (pod slots: none free).  The free amount of r on a node
 *   where some other resource is exhausted is stranded: no pod shaped like
 *   the pool's pods that needs the exhausted resource can use it.  One row per
 *   resource some pod placed in the pool requests (pod slots left out).
 */
#include "quality.h"
#include "../common/db.h"

#include <string.h>

/* resources in reading order: cpu, memory, then by name */
#define RES_ORDER(r) r " <> 'cpu', " r " <> 'memory', " r

/* Working tables, in temp (this connection only), dropped at the end:
 *   kp_q_pool(node_id, pool)                      every node
 *   kp_q_pc(node_id, class_id, per_node, n)       placed pods per node and class
 *   kp_q_nr(node_id, pool, resource, alloc, overhead, app)
 *       every node of a pool x each resource some pod placed in the pool
 *       requests, and 'pods' (a count); overhead: the per-node pods' requests,
 *       app: the app pods'
 *   kp_q_app(pool, class_id, n)                   app pods per pool and class */
static const char *const sql_setup[] = {
	"DROP TABLE IF EXISTS temp.kp_q_pool",
	"DROP TABLE IF EXISTS temp.kp_q_pc",
	"DROP TABLE IF EXISTS temp.kp_q_nr",
	"DROP TABLE IF EXISTS temp.kp_q_app",
	"CREATE TEMP TABLE kp_q_pool(node_id INTEGER PRIMARY KEY, pool TEXT NOT NULL)",
	"INSERT INTO temp.kp_q_pool SELECT n.id, COALESCE(l.value, '(none)')\n"
	"FROM node n LEFT JOIN node_label l ON l.node_id = n.id AND l.key = ?2",
	"CREATE TEMP TABLE kp_q_pc(node_id INTEGER, class_id INTEGER, per_node INTEGER, n INTEGER)",
	"INSERT INTO temp.kp_q_pc\n"
	"SELECT pl.node_id, p.class_id, COALESCE(p.owner_kind IN ('DaemonSet', 'Node'), 0) OR p.daemon_node IS NOT NULL,\n"
	"       count(*)\n"
	"FROM placement pl JOIN pod p ON p.id = pl.pod_id\n"
	"WHERE pl.run_id = ?1 AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IN (SELECT node_id FROM temp.kp_q_pool)\n"
	"GROUP BY 1, 2, 3",
	"CREATE TEMP TABLE kp_q_nr(node_id INTEGER, pool TEXT, resource TEXT, alloc INTEGER, overhead INTEGER,\n"
	"  app INTEGER, PRIMARY KEY(node_id, resource))",
	"INSERT INTO temp.kp_q_nr\n"
	"WITH agg AS MATERIALIZED (\n"
	"  SELECT x.node_id, q.resource, SUM(CASE WHEN x.per_node THEN x.n * q.value ELSE 0 END) AS overhead,\n"
	"         SUM(CASE WHEN x.per_node THEN 0 ELSE x.n * q.value END) AS app\n"
	"  FROM temp.kp_q_pc x JOIN class_request q ON q.class_id = x.class_id\n"
	"  WHERE q.resource <> 'pods' AND q.value > 0 GROUP BY 1, 2\n"
	"  UNION ALL SELECT node_id, 'pods', SUM(per_node * n), SUM((NOT per_node) * n) FROM temp.kp_q_pc GROUP BY 1),\n"
	"pres AS (SELECT DISTINCT np.pool, a.resource FROM agg a JOIN temp.kp_q_pool np ON np.node_id = a.node_id)\n"
	"SELECT np.node_id, np.pool, pr.resource, COALESCE(nr.allocatable, 0), COALESCE(a.overhead, 0), COALESCE(a.app, 0)\n"
	"FROM pres pr JOIN temp.kp_q_pool np ON np.pool = pr.pool\n"
	"LEFT JOIN node_resource nr ON nr.node_id = np.node_id AND nr.resource = pr.resource\n"
	"LEFT JOIN agg a ON a.node_id = np.node_id AND a.resource = pr.resource",
	"CREATE TEMP TABLE kp_q_app(pool TEXT, class_id INTEGER, n INTEGER, PRIMARY KEY(pool, class_id))",
	"INSERT INTO temp.kp_q_app SELECT np.pool, x.class_id, SUM(x.n)\n"
	"FROM temp.kp_q_pc x JOIN temp.kp_q_pool np ON np.node_id = x.node_id WHERE NOT x.per_node GROUP BY 1, 2",
};

static const char sql_quality[] =
	"INSERT INTO plan_quality(run_id, pool, nodes, nodes_used, pods, bound, bound_by, requests_bound,\n"
	"  large_pods_bound, anti_affinity_bound, gap_pct)\n"
	/* capacity: allocatable less the per-node pods, or what the app pods take when more */
	"WITH cap AS MATERIALIZED (\n"
	"  SELECT pool, resource, node_id, max(alloc - overhead, app, 0) AS c,\n"
	"         SUM(app) OVER (PARTITION BY pool, resource) AS total FROM temp.kp_q_nr),\n"
	/* largest capacities first: the nodes counted before the running sum reaches the total */
	"by_requests AS (\n"
	"  SELECT pool, resource, SUM(upto - c < total) AS n FROM (\n"
	"    SELECT pool, resource, total, c, SUM(c) OVER (PARTITION BY pool, resource ORDER BY c DESC, node_id\n"
	"                                                 ROWS UNBOUNDED PRECEDING) AS upto FROM cap WHERE total > 0)\n"
	"  GROUP BY 1, 2),\n"
	"by_large AS (\n"
	"  SELECT a.pool, q.resource, SUM(a.n) AS n\n"
	"  FROM temp.kp_q_app a JOIN class_request q ON q.class_id = a.class_id\n"
	"  JOIN (SELECT pool, resource, max(c) AS cmax FROM cap GROUP BY 1, 2) b ON b.pool = a.pool AND b.resource = q.resource\n"
	"  WHERE q.resource <> 'pods' AND q.value > b.cmax - q.value GROUP BY 1, 2),\n"
	/* required anti-affinity terms that select pods of their own class */
	"aa_term AS MATERIALIZED (\n"
	"  SELECT t.class_id, t.seq, t.selector FROM class_pod_affinity t JOIN pod_class c ON c.id = t.class_id\n"
	"  WHERE t.anti = 1 AND t.required = 1 AND t.selector IS NOT NULL\n"
	"    AND t.match_label_keys = '[]' AND t.mismatch_label_keys = '[]'\n"
	"    AND ((t.namespaces = '[]' AND t.ns_selector IS NULL) OR t.ns_selector = '[]'\n"
	"         OR EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(t.namespaces) THEN t.namespaces ELSE '[]' END) j\n"
	"                    WHERE j.value = c.namespace))\n"
	"    AND t.class_id IN (SELECT class_id FROM temp.kp_q_app)),\n"
	"aa_group AS (\n"
	"  SELECT np.pool, t.class_id, t.seq, count(DISTINCT pl.node_id) AS n, min(p.id) AS first_pod\n"
	"  FROM aa_term t JOIN pod p ON p.class_id = t.class_id\n"
	"  JOIN placement pl ON pl.run_id = ?1 AND pl.pod_id = p.id AND pl.action IN ('keep', 'bind', 'move')\n"
	"  JOIN temp.kp_q_pool np ON np.node_id = pl.node_id\n"
	"  WHERE NOT (COALESCE(p.owner_kind IN ('DaemonSet', 'Node'), 0) OR p.daemon_node IS NOT NULL)\n"
	"    AND kplan_selector_match(t.selector, (SELECT json_group_object(key, value) FROM pod_label WHERE pod_id = p.id))\n"
	"  GROUP BY 1, 2, 3),\n"
	"used AS (SELECT pool, SUM(app > 0) AS used, SUM(app) AS pods FROM temp.kp_q_nr WHERE resource = 'pods' GROUP BY pool),\n"
	"cand AS (\n"
	"  SELECT pool, n, 1 AS k, resource <> 'cpu' AS o1, resource <> 'memory' AS o2, resource AS o3,\n"
	"         'requests:' || resource AS label FROM by_requests\n"
	"  UNION ALL SELECT pool, n, 2, " RES_ORDER("resource") ", 'large-pods:' || resource FROM by_large\n"
	"  UNION ALL SELECT g.pool, g.n, 3, 0, 0, '',\n"
	"    'anti-affinity:' || p.namespace || '/' || COALESCE(w.name, p.owner_name, p.name)\n"
	"    FROM aa_group g JOIN pod p ON p.id = g.first_pod LEFT JOIN workload w ON w.id = p.workload_id\n"
	"  UNION ALL SELECT pool, 1, 4, 0, 0, '', 'one-pod' FROM used WHERE pods > 0),\n"
	"best AS (\n"
	"  SELECT pool, n, label, row_number() OVER (PARTITION BY pool ORDER BY n DESC, k, o1, o2, o3, label) AS rk FROM cand)\n"
	"SELECT ?1, p.pool, p.nodes, COALESCE(u.used, 0), COALESCE(u.pods, 0), COALESCE(b.n, 0),\n"
	"  CASE WHEN b.n > 0 THEN b.label END,\n"
	"  COALESCE((SELECT max(n) FROM by_requests r WHERE r.pool = p.pool), 0),\n"
	"  COALESCE((SELECT max(n) FROM by_large r WHERE r.pool = p.pool), 0),\n"
	"  COALESCE((SELECT max(n) FROM aa_group r WHERE r.pool = p.pool), 0),\n"
	"  CASE WHEN b.n > 0 THEN round(100.0 * (COALESCE(u.used, 0) - b.n) / b.n, 1) END\n"
	"FROM (SELECT pool, count(*) AS nodes FROM temp.kp_q_pool GROUP BY pool) p\n"
	"LEFT JOIN used u ON u.pool = p.pool\n"
	"LEFT JOIN best b ON b.pool = p.pool AND b.rk = 1\n"
	"ORDER BY p.pool";

static const char sql_stranded[] =
	"INSERT INTO plan_stranded(run_id, pool, resource, nodes, allocatable, free, stranded, stranded_nodes,\n"
	"  stranded_pct, exhausted_by)\n"
	"WITH usedn AS MATERIALIZED (SELECT node_id FROM temp.kp_q_nr WHERE resource = 'pods' AND app > 0),\n"
	/* per pool: the smallest positive request of each resource among its app pods */
	"smallest AS MATERIALIZED (\n"
	"  SELECT a.pool, q.resource, min(q.value) AS m FROM temp.kp_q_app a JOIN class_request q ON q.class_id = a.class_id\n"
	"  WHERE q.value > 0 AND q.resource <> 'pods' GROUP BY 1, 2\n"
	"  UNION ALL SELECT DISTINCT pool, 'pods', 1 FROM temp.kp_q_app),\n"
	"nfree AS MATERIALIZED (\n"
	"  SELECT r.pool, r.node_id, r.resource, r.alloc, max(r.alloc - r.overhead - r.app, 0) AS free, s.m\n"
	"  FROM temp.kp_q_nr r JOIN usedn u ON u.node_id = r.node_id\n"
	"  LEFT JOIN smallest s ON s.pool = r.pool AND s.resource = r.resource),\n"
	"exhausted AS MATERIALIZED (SELECT node_id, resource FROM nfree WHERE free < m),\n"
	"strand AS MATERIALIZED (\n"
	"  SELECT f.pool, f.node_id, f.resource, f.alloc, f.free,\n"
	"         f.free > 0 AND EXISTS (SELECT 1 FROM exhausted e WHERE e.node_id = f.node_id AND e.resource <> f.resource) AS s\n"
	"  FROM nfree f WHERE f.resource <> 'pods'),\n"
	"ex AS (\n"
	"  SELECT st.pool, st.resource, e.resource AS exh, count(*) AS n\n"
	"  FROM strand st JOIN exhausted e ON e.node_id = st.node_id AND e.resource <> st.resource\n"
	"  WHERE st.s GROUP BY 1, 2, 3)\n"
	"SELECT ?1, pool, resource, count(*), sum(alloc), sum(free), sum(CASE WHEN s THEN free ELSE 0 END), sum(s),\n"
	"  CASE WHEN sum(alloc) > 0 THEN round(100.0 * sum(CASE WHEN s THEN free ELSE 0 END) / sum(alloc), 1) END,\n"
	"  (SELECT group_concat(exh, ', ') FROM (SELECT exh FROM ex WHERE ex.pool = st.pool AND ex.resource = st.resource\n"
	"                                       ORDER BY n DESC, " RES_ORDER("exh") "))\n"
	"FROM strand st GROUP BY pool, resource ORDER BY pool, " RES_ORDER("resource");

static const char sql_cleanup[] =
	"DROP TABLE IF EXISTS temp.kp_q_pool; DROP TABLE IF EXISTS temp.kp_q_pc;"
	"DROP TABLE IF EXISTS temp.kp_q_nr; DROP TABLE IF EXISTS temp.kp_q_app;";

/* The schema's plan quality section (schema.sql, between its two markers):
 * CREATE TABLE IF NOT EXISTS, for databases made before it existed. */
static int ensure_tables(sqlite3 *db, kp_err *err)
{
	return kp_db_schema_section(db, "plan quality", "plan (plan quality tables)", err);
}

static const char *const dry_tables[] = { "run", "placement", "pod_failure", "eviction", "run_warning", "plan_quality",
					  "plan_stranded" };

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
	if (sqlite3_prepare_v2(db, "SELECT sql FROM main.sqlite_schema WHERE type = 'table' AND name = ?1", -1, &s,
			       NULL) != SQLITE_OK)
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

/* 1 when the plan quality tables of this connection are TEMP ones (a dry run) */
static int dry(sqlite3 *db)
{
	sqlite3_stmt *s;
	int n = 0;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM temp.sqlite_schema WHERE type = 'table' AND name IN "
			       "('plan_quality', 'plan_stranded')", -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n == 2;
}

int kp_quality_write(sqlite3 *db, int64_t run_id, const char *pool_label, kp_err *err)
{
	if (!pool_label)
		pool_label = KP_QUALITY_POOL_LABEL;
	int rc = dry(db) ? KP_OK : ensure_tables(db, err);
	for (size_t i = 0; rc == KP_OK && i < sizeof sql_setup / sizeof *sql_setup; i++)
		rc = kp_db_exec(db, err, "cannot write the plan (plan quality)", sql_setup[i], "it", run_id, pool_label);
	if (rc == KP_OK)
		rc = kp_db_exec(db, err, "cannot write the plan (plan_quality)", sql_quality, "it", run_id, pool_label);
	if (rc == KP_OK)
		rc = kp_db_exec(db, err, "cannot write the plan (plan_stranded)", sql_stranded, "it", run_id, pool_label);
	sqlite3_exec(db, sql_cleanup, NULL, NULL, NULL);
	return rc;
}
