/*
 * model.c — the report's data, read from a run's tables by SQL (report.h).
 *
 * Every table is one SELECT over what `plan` wrote (run, placement,
 * pod_failure, eviction, run_warning) and what was imported (node,
 * node_resource, node_label, pod, class_request, workload, import_batch);
 * nothing is recomputed and nothing is written.  Parameters: ?1 the run
 * (run A of a comparison), ?2 run B (= ?1 for a plain report), ?3 1 to leave
 * out start times and durations, ?4 how many nodes the most/least loaded
 * lists hold.
 *
 * Utilisation (the `node_usage` view, for any run): before = the requests of
 * the pods bound to the node when the run started (not Succeeded/Failed);
 * after = the requests of the pods the run keeps, binds or moves there.  The
 * `pods` resource counts pods.  A node's load is its highest percentage of
 * allocatable over its resources (its dominant resource).  Resources a node
 * lists with 0 allocatable and nothing requested (hugepages-1Gi: 0) are left out.
 */
#include "report.h"

#include <stdio.h>
#include <string.h>
#include <math.h>

/* resources in reading order: cpu, memory, then by name */
#define RES_ORDER "resource <> 'cpu', resource <> 'memory', resource"

#define USAGE_CTE \
	"WITH nres AS (\n" \
	"  SELECT n.id AS node_id, n.name AS node, n.unschedulable AS cordoned,\n" \
	"         COALESCE(z.value, '(none)') AS zone, r.resource, COALESCE(r.allocatable, 0) AS allocatable\n" \
	"  FROM node n JOIN node_resource r ON r.node_id = n.id\n" \
	"  LEFT JOIN node_label z ON z.node_id = n.id AND z.key = 'topology.kubernetes.io/zone'),\n" \
	" live AS MATERIALIZED (SELECT n.id AS node_id, p.class_id FROM node n JOIN pod p ON p.node_name = n.name\n" \
	"  WHERE p.phase NOT IN ('Succeeded', 'Failed')),\n" \
	" placed AS MATERIALIZED (SELECT pl.run_id, pl.node_id, p.class_id FROM placement pl JOIN pod p ON p.id = pl.pod_id\n" \
	"  WHERE pl.run_id IN (?1, ?2) AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL),\n" \
	" req_before AS MATERIALIZED (\n" \
	"  SELECT live.node_id, q.resource, SUM(q.value) AS v FROM live JOIN class_request q ON q.class_id = live.class_id\n" \
	"  WHERE q.resource <> 'pods' GROUP BY 1, 2\n" \
	"  UNION ALL SELECT node_id, 'pods', count(*) FROM live GROUP BY 1),\n" \
	" req_after AS MATERIALIZED (\n" \
	"  SELECT placed.run_id, placed.node_id, q.resource, SUM(q.value) AS v FROM placed\n" \
	"  JOIN class_request q ON q.class_id = placed.class_id WHERE q.resource <> 'pods' GROUP BY 1, 2, 3\n" \
	"  UNION ALL SELECT run_id, node_id, 'pods', count(*) FROM placed GROUP BY 1, 2),\n" \
	" usage AS MATERIALIZED (\n" \
	"  SELECT x.*, COALESCE(b.v, 0) AS rb, COALESCE(a.v, 0) AS ra, COALESCE(c.v, 0) AS rc\n" \
	"  FROM nres x LEFT JOIN req_before b ON b.node_id = x.node_id AND b.resource = x.resource\n" \
	"  LEFT JOIN req_after a ON a.run_id = ?1 AND a.node_id = x.node_id AND a.resource = x.resource\n" \
	"  LEFT JOIN req_after c ON c.run_id = ?2 AND c.node_id = x.node_id AND c.resource = x.resource\n" \
	"  WHERE x.allocatable > 0 OR b.v > 0 OR a.v > 0 OR c.v > 0)\n"

/* the label that names a node's pool, as plan_quality's (planner/quality.h) */
#define POOL_LABEL "node.kubernetes.io/instance-type"

#define PCT(v, of) "CASE WHEN " of " > 0 THEN round(100.0 * " v " / " of ", 1) END"

/* one row per node; load = highest percentage over the node's resources */
#define NODES_CTE USAGE_CTE \
	", pct AS MATERIALIZED (SELECT node_id, resource,\n" \
	"  CASE WHEN allocatable > 0 THEN 100.0 * rb / allocatable END AS pb,\n" \
	"  CASE WHEN allocatable > 0 THEN 100.0 * ra / allocatable END AS pa FROM usage),\n" \
	" nload AS (SELECT node_id, round(max(pb), 1) AS lb, round(max(pa), 1) AS la FROM pct GROUP BY node_id),\n" \
	" dom AS (SELECT node_id, resource, row_number() OVER (PARTITION BY node_id ORDER BY pa DESC, resource) AS k\n" \
	"  FROM pct WHERE pa IS NOT NULL),\n" \
	" pods_b AS (SELECT node_id, count(*) AS c FROM live GROUP BY node_id),\n" \
	" pods_a AS (SELECT node_id, count(*) AS c FROM placed WHERE run_id = ?1 GROUP BY node_id),\n" \
	" nodes AS (SELECT n.name AS node, COALESCE(z.value, '(none)') AS zone, COALESCE(pl.value, '(none)') AS pool,\n" \
	"  n.unschedulable AS cordoned,\n" \
	"  COALESCE(b.c, 0) AS pods_before, COALESCE(a.c, 0) AS pods_after, l.lb AS load_before, l.la AS load_after,\n" \
	"  CASE WHEN l.la > 0 THEN d.resource END AS dominant_resource\n" \
	"  FROM node n LEFT JOIN node_label z ON z.node_id = n.id AND z.key = 'topology.kubernetes.io/zone'\n" \
	"  LEFT JOIN node_label pl ON pl.node_id = n.id AND pl.key = '" POOL_LABEL "'\n" \
	"  LEFT JOIN nload l ON l.node_id = n.id LEFT JOIN dom d ON d.node_id = n.id AND d.k = 1\n" \
	"  LEFT JOIN pods_b b ON b.node_id = n.id LEFT JOIN pods_a a ON a.node_id = n.id)\n"

/* ---- columns ---- */

#define C(k) { k, KP_RU_NONE, 0 }
#define CU(k, u) { k, u, 0 }
#define CA(k, res) { k, KP_RU_AMOUNT, res }

static const kp_rcol cols_kv[] = { C("key"), C("value") };
static const kp_rcol cols_fix[] = { C("namespace"), C("pod"), C("kind"), C("detail"), C("victims"), C("result_node") };
static const kp_rcol cols_capacity[] = { C("id"), C("kind"), C("subject"), C("answer"), C("bound"), C("status"), C("reason") };
static const kp_rcol cols_capacity_quality[] = {
	C("capacity"), C("pool"), C("nodes"), C("used"), C("pods"), C("bound"), C("bound_by"), CU("gap_pct", KP_RU_PCT),
};
static const kp_rcol cols_scenario[] = {
	C("seq"), C("option"), C("value"), C("nodes"), C("pods_pending"), C("pods_added"), C("pods_removed"),
	C("effect"), C("result"),
};
static const kp_rcol cols_rebalance[] = {
	C("wave"), C("seq"), C("namespace"), C("pod"), C("from_node"), C("node"), C("strategy"), C("gain"), C("cost"),
	C("detail"),
};
static const kp_rcol cols_rebalance_util[] = {
	C("resource"), C("nodes"), CU("mean_before", KP_RU_PCT), CU("stddev_before", KP_RU_PCT),
	CU("mean_after", KP_RU_PCT), CU("stddev_after", KP_RU_PCT), C("nodes_freed"),
};
static const kp_rcol cols_rebalance_nodes[] = {
	C("node"), C("pool"), C("moves_out"), C("moves_in"), C("freed"), C("resource"), CA("allocatable", 5),
	CA("requested_before", 5), CA("requested_after", 5), CU("percent_before", KP_RU_PCT),
	CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_batches[] = {
	C("batch"), C("started"), C("sources"), C("nodes"), C("pods"), C("generated_pods"), C("workloads"),
	C("files"), CU("bytes", KP_RU_BYTES),
};
static const kp_rcol cols_warnings[] = { C("kind"), C("pods"), C("message") };
static const kp_rcol cols_reasons[] = { C("reason"), C("plugin"), C("pods"), C("pods_any"), C("node_rejections") };
static const kp_rcol cols_groups[] = { C("pods"), C("reasons"), C("examples") };
static const kp_rcol cols_unsched[] = {
	C("namespace"), C("pod"), CU("cpu", KP_RU_CPU), CU("memory", KP_RU_BYTES), C("message"),
};
static const kp_rcol cols_resources[] = {
	C("resource"), C("nodes"), CA("allocatable", 0), CA("requested_before", 0), CA("requested_after", 0),
	CU("percent_before", KP_RU_PCT), CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_nodes[] = {
	C("node"), C("zone"), C("pool"), C("cordoned"), C("pods_before"), C("pods_after"),
	CU("load_before", KP_RU_PCT), CU("load_after", KP_RU_PCT), C("dominant_resource"),
};
static const kp_rcol cols_usage[] = {
	C("node"), C("resource"), CA("allocatable", 1), CA("requested_before", 1), CA("requested_after", 1),
	CU("percent_before", KP_RU_PCT), CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_zones[] = {
	C("zone"), C("resource"), C("nodes"), CA("allocatable", 1), CA("requested_before", 1), CA("requested_after", 1),
	CU("percent_before", KP_RU_PCT), CU("percent_after", KP_RU_PCT),
};
static const kp_rcol cols_quality[] = {
	C("pool"), C("nodes"), C("used"), C("bound"), C("bound_by"), CU("gap_pct", KP_RU_PCT),
};
static const kp_rcol cols_stranded[] = {
	C("pool"), C("resource"), C("nodes"), CA("allocatable", 1), CA("free", 1), CA("stranded", 1), C("stranded_nodes"),
	CU("stranded_pct", KP_RU_PCT), C("exhausted_by"),
};
static const kp_rcol cols_ns[] = {
	C("namespace"), C("pods"), C("keep"), C("bind"), C("move"), C("evict"), C("unschedulable"),
	CU("cpu_placed", KP_RU_CPU), CU("memory_placed", KP_RU_BYTES),
	CU("cpu_unplaced", KP_RU_CPU), CU("memory_unplaced", KP_RU_BYTES),
};
static const kp_rcol cols_wl[] = {
	C("kind"), C("namespace"), C("name"), C("pods"), C("keep"), C("bind"), C("move"), C("evict"),
	C("unschedulable"), CU("cpu_placed", KP_RU_CPU), CU("memory_placed", KP_RU_BYTES),
	CU("cpu_unplaced", KP_RU_CPU), CU("memory_unplaced", KP_RU_BYTES),
};
static const kp_rcol cols_evictions[] = {
	C("seq"), C("victim"), C("victim_priority"), C("node"), C("preemptor"), C("preemptor_priority"),
	C("pdb_violated"), C("pdbs"), C("outcome"), C("now_on"),
};
static const kp_rcol cols_moves[] = { C("seq"), C("namespace"), C("pod"), C("from_node"), C("node"), C("preempted_by") };
static const kp_rcol cols_runs[] = {
	C("run"), C("started"), C("seed"), C("config_source"), C("options"), C("pods"), C("keep"), C("bind"),
	C("move"), C("evict"), C("unschedulable"), C("evictions"), CU("elapsed", KP_RU_SECONDS),
};
static const kp_rcol cols_changed[] = {
	C("namespace"), C("pod"), C("action_a"), C("node_a"), C("action_b"), C("node_b"),
};
static const kp_rcol cols_res_delta[] = {
	C("resource"), CA("allocatable", 0), CA("requested_a", 0), CA("requested_b", 0), CA("delta", 0),
	CU("percent_a", KP_RU_PCT), CU("percent_b", KP_RU_PCT),
};
static const kp_rcol cols_usage_delta[] = {
	C("node"), C("resource"), CA("allocatable", 1), CA("requested_a", 1), CA("requested_b", 1), CA("delta", 1),
	CU("percent_a", KP_RU_PCT), CU("percent_b", KP_RU_PCT),
};

#define COLS(a) (int)(sizeof a / sizeof a[0]), a

/* ---- queries ---- */

static const char sql_summary[] =
	"SELECT r.id AS run, CASE WHEN ?3 THEN NULL ELSE r.started END AS started, r.kplan AS kplan,\n"
	" r.seed AS seed, r.config_source AS config_source,\n"
	" CASE WHEN json_valid(r.options) THEN json_extract(r.options, '$.no_preemption') END AS no_preemption,\n"
	" r.nodes AS nodes, r.pending AS pending,\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id) AS pods,\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'keep') AS keep,\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'bind') AS bind,\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'move') AS move,\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'evict') AS evict,\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'unschedulable') AS unschedulable,\n"
	" r.ignored AS other_schedulers,\n"
	" (SELECT count(*) FROM eviction WHERE run_id = r.id) AS evictions,\n"
	" (SELECT count(*) FROM eviction WHERE run_id = r.id AND pdb_violated) AS pdb_violations,\n"
	" r.passes AS passes, CASE WHEN ?3 THEN NULL ELSE round(r.elapsed, 3) END AS elapsed_seconds,\n"
	" (SELECT count(*) FROM import_batch b WHERE b.started <= r.started) AS input_batches,\n"
	" (SELECT count(*) FROM run_warning WHERE run_id = r.id) AS warnings\n"
	"FROM run r WHERE r.id = ?1";

/* 1 when the query (?1 = run) returns a row; 0 also when its table does
 * not exist (a database made before the feature) */
static int any_row(sqlite3 *db, const char *sql, int64_t run)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_bind_parameter_count(s) >= 1)
		sqlite3_bind_int64(s, 1, run);
	int n = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return n;
}

/* what-if runs only (planner/whatif.h): the section is left out when the run has no scenario */
static const char sql_scenario[] =
	"SELECT seq, option, value, nodes, pods_pending, pods_added, pods_removed, effect, result\n"
	"FROM run_scenario WHERE run_id = ?1 ORDER BY seq";

/* kplan capacity's answers (cli/cmd_capacity.c), the latest 20, for the
 * database rather than the run; the section is left out when there are none */
static const char sql_capacity[] =
	"SELECT id, kind, subject, answer, bound, status, reason FROM capacity_run ORDER BY id DESC LIMIT 20";

/* the quality certificates of those answers (capacity_quality) */
static const char sql_capacity_quality[] =
	"SELECT capacity_id, pool, nodes, nodes_used, pods, bound, bound_by, gap_pct FROM capacity_quality\n"
	"WHERE capacity_id IN (SELECT id FROM capacity_run ORDER BY id DESC LIMIT 20)\n"
	"ORDER BY capacity_id DESC, pool = '(none)', pool";

/* kplan fix's rows for the run (planner/fix.c); left out when there are none.
 * Per pod its best candidate (rank 1); a fix table from before rank has one row a pod. */
static const char sql_fix[] =
	"SELECT namespace, pod, kind, detail, victims, result_node FROM fix WHERE run_id = ?1 ORDER BY namespace, pod";
static const char sql_fix_ranked[] =
	"SELECT namespace, pod, kind, detail, victims, result_node FROM fix WHERE run_id = ?1 AND rank = 1 "
	"ORDER BY namespace, pod";

/* --mode rebalance runs only (planner/rebalance.h): left out for other runs */
static const char sql_rebalance[] =
	"SELECT wave, seq, namespace, pod, from_node, to_node, strategy, gain, cost, detail\n"
	"FROM move_wave WHERE run_id = ?1 ORDER BY seq";
static const char sql_rebalance_util[] =
	"SELECT u.resource, u.nodes, u.mean_before, u.stddev_before, u.mean_after, u.stddev_after, r.nodes_freed\n"
	"FROM rebalance_util u JOIN rebalance_run r ON r.run_id = u.run_id WHERE u.run_id = ?1\n"
	"ORDER BY u.resource <> 'cpu', u.resource <> 'memory', u.resource";

/* the nodes the moves touch (rebalance_node), per resource: before = where the
 * run's kept, bound and moved pods were before the moves (a moved pod on its
 * move_wave.from_node), after = after them */
static const char sql_rebalance_nodes[] =
	"WITH t AS (SELECT node_id, moves_out, moves_in, freed FROM rebalance_node WHERE run_id = ?1),\n"
	" mv AS (SELECT pod_id, from_node_id FROM move_wave WHERE run_id = ?1),\n"
	" placed AS MATERIALIZED (SELECT COALESCE(mv.from_node_id, pl.node_id) AS nb, pl.node_id AS na, p.class_id\n"
	"  FROM placement pl JOIN pod p ON p.id = pl.pod_id LEFT JOIN mv ON mv.pod_id = pl.pod_id\n"
	"  WHERE pl.run_id = ?1 AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL),\n"
	" side AS MATERIALIZED (SELECT nb AS node_id, class_id, 1 AS b, 0 AS a FROM placed WHERE nb IN (SELECT node_id FROM t)\n"
	"  UNION ALL SELECT na, class_id, 0, 1 FROM placed WHERE na IN (SELECT node_id FROM t)),\n"
	" req AS (SELECT s.node_id, q.resource, sum(q.value * s.b) AS rb, sum(q.value * s.a) AS ra FROM side s\n"
	"  JOIN class_request q ON q.class_id = s.class_id WHERE q.resource <> 'pods' GROUP BY 1, 2\n"
	"  UNION ALL SELECT node_id, 'pods', sum(b), sum(a) FROM side GROUP BY 1)\n"
	"SELECT n.name, COALESCE(pl.value, '(none)'), t.moves_out, t.moves_in, t.freed, r.resource,\n"
	" COALESCE(r.allocatable, 0), COALESCE(q.rb, 0), COALESCE(q.ra, 0),\n"
	" " PCT("COALESCE(q.rb, 0)", "r.allocatable") ", " PCT("COALESCE(q.ra, 0)", "r.allocatable") "\n"
	"FROM t JOIN node n ON n.id = t.node_id JOIN node_resource r ON r.node_id = t.node_id\n"
	"LEFT JOIN node_label pl ON pl.node_id = n.id AND pl.key = '" POOL_LABEL "'\n"
	"LEFT JOIN req q ON q.node_id = t.node_id AND q.resource = r.resource\n"
	"WHERE r.allocatable > 0 OR q.rb > 0 OR q.ra > 0\n"
	"ORDER BY t.freed DESC, n.name, r.resource <> 'cpu', r.resource <> 'memory', r.resource";

static const char sql_batches[] =
	"SELECT b.id, CASE WHEN ?3 THEN NULL ELSE b.started END,\n"
	" CASE WHEN json_valid(b.sources) THEN (SELECT group_concat(value, ', ') FROM json_each(b.sources)) ELSE b.sources END,\n"
	" CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.nodes') END,\n"
	" CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.pods') END,\n"
	" CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.generated_pods') END,\n"
	" CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.workloads') END,\n"
	" CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.files') END,\n"
	" CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.bytes') END\n"
	"FROM import_batch b WHERE b.started <= (SELECT started FROM run WHERE id = ?1) ORDER BY b.id";

static const char sql_warnings[] =
	"SELECT kind, pods, message FROM run_warning WHERE run_id = ?1 ORDER BY kind";

/* Pods per reason, counted where the reason is decisive (planner/decisive.h:
 * pod_failure.decisive; runs made before the column: derived the same way,
 * from the plugin), and where any node gave it. */
#define STATIC_PLUGINS "('NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity')"
#define DERIVED_DECISIVE "(f.plugin NOT IN " STATIC_PLUGINS " OR NOT EXISTS (SELECT 1 FROM pod_failure g\n" \
	"  WHERE g.run_id = f.run_id AND g.pod_id = f.pod_id AND g.plugin NOT IN " STATIC_PLUGINS "))"
#define SQL_REASONS(DECISIVE) \
	"WITH u AS (SELECT pod_id, reason FROM placement WHERE run_id = ?1 AND action = 'unschedulable')\n" \
	"SELECT f.reason, f.plugin, sum(" DECISIVE ") AS pods, count(*) AS pods_any, sum(f.nodes) AS nodes\n" \
	"FROM u JOIN pod_failure f ON f.run_id = ?1 AND f.pod_id = u.pod_id GROUP BY f.plugin, f.reason\n" \
	"UNION ALL\n" \
	"SELECT COALESCE(u.reason, '(no reason recorded)'), NULL, count(*), count(*), NULL FROM u\n" \
	"WHERE NOT EXISTS (SELECT 1 FROM pod_failure f WHERE f.run_id = ?1 AND f.pod_id = u.pod_id) GROUP BY u.reason\n" \
	"ORDER BY 3 DESC, 4 DESC, 1, 2"
static const char sql_reasons[] = SQL_REASONS("COALESCE(f.decisive, " DERIVED_DECISIVE ")");
static const char sql_reasons_derived[] = SQL_REASONS(DERIVED_DECISIVE);   /* no pod_failure.decisive */

static const char sql_groups[] =
	"WITH u AS (SELECT pl.pod_id, pl.reason AS msg, COALESCE(p.namespace || '/' || p.name, '#' || pl.pod_id) AS pod\n"
	"  FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id WHERE pl.run_id = ?1 AND pl.action = 'unschedulable'),\n"
	" s AS MATERIALIZED (SELECT u.pod, COALESCE((SELECT group_concat(reason, '; ') FROM\n"
	"   (SELECT DISTINCT f.reason FROM pod_failure f WHERE f.run_id = ?1 AND f.pod_id = u.pod_id ORDER BY f.reason)),\n"
	"   u.msg, '(no reason recorded)') AS reasons FROM u)\n"
	"SELECT count(*) AS pods, s.reasons,\n"
	" (SELECT group_concat(pod, ', ') FROM (SELECT x.pod FROM s x WHERE x.reasons = s.reasons ORDER BY x.pod LIMIT 3))\n"
	"FROM s GROUP BY s.reasons ORDER BY 1 DESC, 2";

static const char sql_unsched[] =
	"SELECT p.namespace, COALESCE(p.name, '#' || pl.pod_id), c.value, m.value, pl.reason\n"
	"FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id\n"
	"LEFT JOIN class_request c ON c.class_id = p.class_id AND c.resource = 'cpu'\n"
	"LEFT JOIN class_request m ON m.class_id = p.class_id AND m.resource = 'memory'\n"
	"WHERE pl.run_id = ?1 AND pl.action = 'unschedulable' ORDER BY 1, 2";

static const char sql_resources[] = USAGE_CTE
	"SELECT resource, sum(allocatable > 0), sum(allocatable), sum(rb), sum(ra),\n"
	" " PCT("sum(rb)", "sum(allocatable)") ", " PCT("sum(ra)", "sum(allocatable)") "\n"
	"FROM usage GROUP BY resource ORDER BY " RES_ORDER;

static const char sql_nodes[] = NODES_CTE "SELECT * FROM nodes ORDER BY node";
static const char sql_most[] = NODES_CTE
	"SELECT * FROM nodes WHERE load_after IS NOT NULL ORDER BY load_after DESC, node LIMIT ?4";
static const char sql_least[] = NODES_CTE
	"SELECT * FROM nodes WHERE load_after IS NOT NULL ORDER BY load_after, node LIMIT ?4";

static const char sql_usage[] = USAGE_CTE
	"SELECT node, resource, allocatable, rb, ra, " PCT("rb", "allocatable") ", " PCT("ra", "allocatable") "\n"
	"FROM usage ORDER BY node, " RES_ORDER;

static const char sql_zones[] = USAGE_CTE
	"SELECT zone, resource, sum(allocatable > 0), sum(allocatable), sum(rb), sum(ra),\n"
	" " PCT("sum(rb)", "sum(allocatable)") ", " PCT("sum(ra)", "sum(allocatable)") "\n"
	"FROM usage GROUP BY zone, resource ORDER BY zone = '(none)', zone, " RES_ORDER;

/* plan_quality and plan_stranded, as the run wrote them (planner/quality.c) */
static const char sql_quality[] =
	"SELECT pool, nodes, nodes_used, bound, bound_by, gap_pct FROM plan_quality WHERE run_id = ?1\n"
	"ORDER BY pool = '(none)', pool";

static const char sql_stranded[] =
	"SELECT pool, resource, nodes, allocatable, free, stranded, stranded_nodes, stranded_pct, exhausted_by\n"
	"FROM plan_stranded WHERE run_id = ?1 ORDER BY pool = '(none)', pool, " RES_ORDER;

#define ACTION_TOTALS \
	" count(*), sum(pl.action = 'keep'), sum(pl.action = 'bind'), sum(pl.action = 'move'),\n" \
	" sum(pl.action = 'evict'), sum(pl.action = 'unschedulable'),\n" \
	" COALESCE(sum(CASE WHEN pl.node_id IS NOT NULL AND pl.action IN ('keep', 'bind', 'move') THEN c.value END), 0),\n" \
	" COALESCE(sum(CASE WHEN pl.node_id IS NOT NULL AND pl.action IN ('keep', 'bind', 'move') THEN m.value END), 0),\n" \
	" COALESCE(sum(CASE WHEN pl.action IN ('evict', 'unschedulable') THEN c.value END), 0),\n" \
	" COALESCE(sum(CASE WHEN pl.action IN ('evict', 'unschedulable') THEN m.value END), 0)\n" \
	"FROM placement pl JOIN pod p ON p.id = pl.pod_id\n" \
	"LEFT JOIN class_request c ON c.class_id = p.class_id AND c.resource = 'cpu'\n" \
	"LEFT JOIN class_request m ON m.class_id = p.class_id AND m.resource = 'memory'\n"

static const char sql_namespaces[] =
	"SELECT p.namespace," ACTION_TOTALS "WHERE pl.run_id = ?1 GROUP BY p.namespace ORDER BY p.namespace";

/* a pod's workload: the one it was generated from, else its controller, else "(bare pods)" */
static const char sql_workloads[] =
	"SELECT CASE WHEN w.id IS NOT NULL THEN w.kind WHEN p.owner_kind IS NOT NULL THEN p.owner_kind ELSE '(none)' END AS k,\n"
	" p.namespace AS ns,\n"
	" CASE WHEN w.id IS NOT NULL THEN w.name WHEN p.owner_kind IS NOT NULL THEN COALESCE(p.owner_name, '') ELSE '(bare pods)' END AS nm,"
	ACTION_TOTALS "LEFT JOIN workload w ON w.id = p.workload_id\n"
	"WHERE pl.run_id = ?1 GROUP BY k, ns, nm ORDER BY ns, k, nm";

static const char sql_evictions[] =
	"SELECT e.seq, COALESCE(v.namespace || '/' || v.name, '#' || e.pod_id),\n"
	" (SELECT priority FROM pod_priority WHERE pod_id = e.pod_id), COALESCE(n.name, '#' || e.node_id),\n"
	" COALESCE(pp.namespace || '/' || pp.name, '#' || e.preemptor_pod_id),\n"
	" (SELECT priority FROM pod_priority WHERE pod_id = e.preemptor_pod_id), e.pdb_violated,\n"
	" CASE WHEN json_valid(e.pdbs) THEN COALESCE((SELECT group_concat(value, ', ') FROM json_each(e.pdbs)), '')\n"
	"      ELSE COALESCE(e.pdbs, '') END,\n"
	" pl.action, nn.name\n"
	"FROM eviction e LEFT JOIN pod v ON v.id = e.pod_id LEFT JOIN pod pp ON pp.id = e.preemptor_pod_id\n"
	"LEFT JOIN node n ON n.id = e.node_id LEFT JOIN placement pl ON pl.run_id = e.run_id AND pl.pod_id = e.pod_id\n"
	"LEFT JOIN node nn ON nn.id = pl.node_id WHERE e.run_id = ?1 ORDER BY e.seq";

static const char sql_moves[] =
	"SELECT pl.seq, p.namespace, COALESCE(p.name, '#' || pl.pod_id), f.name, n.name,\n"
	" (SELECT pp.namespace || '/' || pp.name FROM eviction e JOIN pod pp ON pp.id = e.preemptor_pod_id\n"
	"  WHERE e.run_id = pl.run_id AND e.pod_id = pl.pod_id ORDER BY e.seq DESC LIMIT 1)\n"
	"FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id LEFT JOIN node f ON f.id = pl.from_node_id\n"
	"LEFT JOIN node n ON n.id = pl.node_id WHERE pl.run_id = ?1 AND pl.action = 'move' ORDER BY pl.seq, 2, 3";

/* ---- comparison ---- */

static const char sql_cmp_summary[] =
	"WITH u AS (SELECT pod_id FROM placement WHERE run_id IN (?1, ?2) GROUP BY pod_id)\n"
	"SELECT ?1 AS run_a, ?2 AS run_b,\n"
	" (SELECT count(*) FROM u LEFT JOIN placement a ON a.run_id = ?1 AND a.pod_id = u.pod_id\n"
	"  LEFT JOIN placement b ON b.run_id = ?2 AND b.pod_id = u.pod_id\n"
	"  WHERE a.action IS NOT b.action OR a.node_id IS NOT b.node_id) AS pods_changed";

static const char sql_runs[] =
	"SELECT r.id, CASE WHEN ?3 THEN NULL ELSE r.started END, r.seed, r.config_source, r.options,\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id),\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'keep'),\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'bind'),\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'move'),\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'evict'),\n"
	" (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'unschedulable'),\n"
	" (SELECT count(*) FROM eviction WHERE run_id = r.id),\n"
	" CASE WHEN ?3 THEN NULL ELSE round(r.elapsed, 3) END\n"
	"FROM run r WHERE r.id IN (?1, ?2) ORDER BY r.id = ?2, r.id";

static const char sql_changed[] =
	"WITH u AS (SELECT pod_id FROM placement WHERE run_id IN (?1, ?2) GROUP BY pod_id)\n"
	"SELECT p.namespace, COALESCE(p.name, '#' || u.pod_id), a.action, na.name, b.action, nb.name\n"
	"FROM u LEFT JOIN pod p ON p.id = u.pod_id\n"
	"LEFT JOIN placement a ON a.run_id = ?1 AND a.pod_id = u.pod_id LEFT JOIN node na ON na.id = a.node_id\n"
	"LEFT JOIN placement b ON b.run_id = ?2 AND b.pod_id = u.pod_id LEFT JOIN node nb ON nb.id = b.node_id\n"
	"WHERE a.action IS NOT b.action OR a.node_id IS NOT b.node_id ORDER BY 1, 2";

static const char sql_res_delta[] = USAGE_CTE
	"SELECT resource, sum(allocatable), sum(ra), sum(rc), sum(rc) - sum(ra),\n"
	" " PCT("sum(ra)", "sum(allocatable)") ", " PCT("sum(rc)", "sum(allocatable)") "\n"
	"FROM usage GROUP BY resource ORDER BY " RES_ORDER;

static const char sql_usage_delta[] = USAGE_CTE
	"SELECT node, resource, allocatable, ra, rc, rc - ra, " PCT("ra", "allocatable") ", " PCT("rc", "allocatable") "\n"
	"FROM usage WHERE ra <> rc ORDER BY node, " RES_ORDER;

/* ---- building ---- */

typedef struct spec {
	const char *id, *title, *note;
	int kv;
	int ncols;
	const kp_rcol *cols;
	const char *sql;
} spec;

static const spec run_specs[] = {
	{ "summary", "Summary", NULL, 1, COLS(cols_kv), sql_summary },
	{ "scenario", "What-if scenario", "what this run changed in the cluster, for the run only, in the order "
	  "applied; result: what the plan did with it", 0, COLS(cols_scenario), sql_scenario },
	{ "rebalance", "Rebalance: moves", "--mode rebalance: the proposed moves in order; every wave can run at once "
	  "(PDBs hold); gain: violation fixed (1), utilisation points taken off the source, or share of a node freed; "
	  "cost: 1 per pod, 2 for StatefulSet pods, +1 with PVCs", 0, COLS(cols_rebalance), sql_rebalance },
	{ "rebalance_util", "Rebalance: utilisation", "per resource over the nodes, before the moves and after them",
	  0, COLS(cols_rebalance_util), sql_rebalance_util },
	{ "rebalance_nodes", "Rebalance: nodes", "the nodes the moves touch, per resource, before the moves (where the "
	  "run's pods were, a moved pod on the node it leaves) and after them; freed: 1 when the node had app pods and "
	  "has none after (DaemonSet and static pods stay); freed nodes first", 0, COLS(cols_rebalance_nodes),
	  sql_rebalance_nodes },
	{ "batches", "Input batches", "the imports made before the run", 0, COLS(cols_batches), sql_batches },
	{ "warnings", "Warnings", "what the planner met and does not model", 0, COLS(cols_warnings), sql_warnings },
	{ "unschedulable_reasons", "Unschedulable: reasons", "pods: unschedulable pods the reason decides (given by "
	  "nodes that pass every static filter: taints, selectors, node affinity, cordon; or a static reason when no "
	  "node passes them); pods_any: pods given the reason by at least one node; node_rejections: (pod, node) pairs",
	  0, COLS(cols_reasons), sql_reasons },
	{ "unschedulable_groups", "Unschedulable: pods by their reasons", "each group: the pods that failed for the same "
	  "set of reasons", 0, COLS(cols_groups), sql_groups },
	{ "unschedulable", "Unschedulable pods", NULL, 0, COLS(cols_unsched), sql_unsched },
	{ "fix", "Why-not: the smallest fix", "kplan fix: per unschedulable pod, the least disruptive change found that "
	  "makes it fit (add one node < evict lower-priority pods < relax a soft rule < relax a hard rule < untaint a "
	  "node dedicated to something it does not use), checked with a dry-run plan; the fix table holds every "
	  "candidate and the joint change set", 0, COLS(cols_fix), sql_fix },
	{ "resources", "Cluster resources", "requested before the plan (bound pods) and after it (kept, bound and moved "
	  "pods); pods: the number of pods", 0, COLS(cols_resources), sql_resources },
	{ "most_loaded", "Most loaded nodes", "load: the highest percentage of allocatable over the node's resources",
	  0, COLS(cols_nodes), sql_most },
	{ "least_loaded", "Least loaded nodes", NULL, 0, COLS(cols_nodes), sql_least },
	{ "nodes", "Nodes", NULL, 0, COLS(cols_nodes), sql_nodes },
	{ "node_usage", "Node utilisation", "every resource of every node, before and after the plan",
	  0, COLS(cols_usage), sql_usage },
	{ "zones", "Zones", "by label topology.kubernetes.io/zone", 0, COLS(cols_zones), sql_zones },
	{ "quality", "Plan quality", "per pool (label node.kubernetes.io/instance-type): nodes used by pods other than "
	  "DaemonSet and static pods, a lower bound on the nodes those pods need, and the gap to it", 0,
	  COLS(cols_quality), sql_quality },
	{ "stranded", "Stranded capacity", "free on the used nodes; stranded: free on a node where another resource "
	  "is exhausted (less free than the pool's smallest request of it)", 0, COLS(cols_stranded), sql_stranded },
	{ "namespaces", "Namespaces", "placed: requests of the pods on a node after the plan; unplaced: of the "
	  "unschedulable and evicted pods", 0, COLS(cols_ns), sql_namespaces },
	{ "workloads", "Workloads", "the workload a pod was generated from, else its controller", 0, COLS(cols_wl),
	  sql_workloads },
	{ "evictions", "Preemptions", "evictions in order; outcome: move (re-created and placed) or evict", 0,
	  COLS(cols_evictions), sql_evictions },
	{ "moves", "Moves", NULL, 0, COLS(cols_moves), sql_moves },
	{ "capacity", "Capacity", "kplan capacity's latest answers for this database (pod: replicas that fit, of bound "
	  "tried; nodes-needed: nodes to add, bound: the lower bound; survive: 1 when it survives), newest first", 0,
	  COLS(cols_capacity), sql_capacity },
	{ "capacity_quality", "Capacity: quality certificates", "per answer and pool, of the plan that gives the answer "
	  "(pod: with the replicas; nodes-needed: with the nodes found; survive: without the worst domain): nodes used by "
	  "pods other than DaemonSet and static pods, the lower bound on the nodes they need, the gap", 0,
	  COLS(cols_capacity_quality), sql_capacity_quality },
};

static const spec cmp_specs[] = {
	{ "summary", "Summary", NULL, 1, COLS(cols_kv), sql_cmp_summary },
	{ "runs", "Runs", NULL, 0, COLS(cols_runs), sql_runs },
	{ "changed_pods", "Pods placed differently", "action or node differs between run A and run B", 0,
	  COLS(cols_changed), sql_changed },
	{ "resource_delta", "Cluster resources", "requested after run A and after run B", 0, COLS(cols_res_delta),
	  sql_res_delta },
	{ "usage_delta", "Node utilisation changes", "node resources whose requests differ (delta = B - A)", 0,
	  COLS(cols_usage_delta), sql_usage_delta },
};

static int add_row(kp_rtable *t, kp_err *err)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		kp_rcell *c = kp_realloc(t->cells, cap * (size_t)t->ncols * sizeof *c);
		if (!c)
			return kp_err_set(err, KP_NOMEM, "out of memory");
		t->cells = c;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof *t->cells);
	t->nrows++;
	return KP_OK;
}

/* length of the valid UTF-8 sequence at p (n bytes left), 0 when invalid */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
	else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < len; k++)
		if ((p[k] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* a copy of the n bytes at s in the arena, NUL bytes dropped and invalid
 * UTF-8 replaced by U+FFFD, so that every renderer emits valid text */
static char *clean_text(kp_arena *a, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;
	while (i < n && p[i] && (len = utf8_seq(p + i, n - i)))
		i += len;
	if (i == n)
		return kp_arena_strndup(a, s, n);
	char *out = kp_arena_alloc(a, n * 3 + 1), *o = out;
	if (!out)
		return NULL;
	for (i = 0; i < n;) {
		if (!p[i]) {
			i++;
		} else if ((len = utf8_seq(p + i, n - i))) {
			memcpy(o, p + i, len);
			o += len;
			i += len;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*o = 0;
	return out;
}

static int set_cell(kp_report *r, kp_rcell *c, sqlite3_stmt *s, int j, kp_err *err)
{
	switch (sqlite3_column_type(s, j)) {
	case SQLITE_INTEGER:
		c->type = KP_RV_INT;
		c->i = sqlite3_column_int64(s, j);
		break;
	case SQLITE_FLOAT:
		c->type = KP_RV_REAL;
		c->d = sqlite3_column_double(s, j);
		if (!isfinite(c->d))
			c->type = KP_RV_NULL;
		break;
	case SQLITE_NULL:
		c->type = KP_RV_NULL;
		break;
	default: {
		const char *v = (const char *)sqlite3_column_text(s, j);
		c->type = KP_RV_TEXT;
		c->s = clean_text(&r->arena, v ? v : "", v ? (size_t)sqlite3_column_bytes(s, j) : 0);
		if (!c->s)
			return kp_err_set(err, KP_NOMEM, "out of memory");
	}
	}
	return KP_OK;
}

static int load(sqlite3 *db, kp_report *r, const spec *sp, int64_t limit, kp_err *err)
{
	if (sp->sql == sql_scenario && !any_row(db, "SELECT 1 FROM run_scenario WHERE run_id = ?1 LIMIT 1", r->run_a))
		return KP_OK;
	if ((sp->sql == sql_rebalance || sp->sql == sql_rebalance_util || sp->sql == sql_rebalance_nodes) &&
	    !any_row(db, "SELECT 1 FROM rebalance_run WHERE run_id = ?1", r->run_a))
		return KP_OK;
	if (sp->sql == sql_capacity && !any_row(db, "SELECT 1 FROM capacity_run LIMIT 1", 0))
		return KP_OK;
	if (sp->sql == sql_capacity_quality && !any_row(db, "SELECT 1 FROM capacity_quality LIMIT 1", 0))
		return KP_OK;
	if (sp->sql == sql_fix && !any_row(db, "SELECT 1 FROM fix WHERE run_id = ?1 LIMIT 1", r->run_a))
		return KP_OK;
	if (r->ntables == KP_REPORT_MAX_TABLES)
		return kp_err_set(err, KP_ERROR, "report: too many tables");
	const char *sql = sp->sql;
	if (sql == sql_reasons && !any_row(db, "SELECT 1 FROM pragma_table_info('pod_failure') WHERE name = 'decisive'", 0))
		sql = sql_reasons_derived;
	kp_rtable *t = &r->tables[r->ntables++];
	memset(t, 0, sizeof *t);
	t->id = sp->id;
	t->title = sp->title;
	t->note = sp->note;
	t->kv = sp->kv;
	t->ncols = sp->ncols;
	t->cols = sp->cols;
	sqlite3_stmt *s;
	if (sql == sql_fix && any_row(db, "SELECT 1 FROM pragma_table_info('fix') WHERE name = 'rank'", 0))
		sql = sql_fix_ranked;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		/* a database made before the plan quality tables: no such rows */
		const char *m = sqlite3_errmsg(db);
		if (!strcmp(m, "no such table: plan_quality") || !strcmp(m, "no such table: plan_stranded"))
			return KP_OK;
		return kp_err_set(err, KP_ERROR, "report %s: %s", sp->id, m);
	}
	int np = sqlite3_bind_parameter_count(s);
	int64_t vals[4] = { r->run_a, r->run_b, r->no_timing, limit };
	for (int i = 1; i <= np && i <= 4; i++)
		sqlite3_bind_int64(s, i, vals[i - 1]);
	int nc = sqlite3_column_count(s);
	if (!sp->kv && nc != t->ncols) {
		sqlite3_finalize(s);
		return kp_err_set(err, KP_ERROR, "report %s: %d columns, want %d", sp->id, nc, t->ncols);
	}
	int rc, ret = KP_OK;
	while (ret == KP_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (sp->kv) {
			/* one row: each column becomes a (key, value) row */
			for (int j = 0; j < nc && ret == KP_OK; j++) {
				if ((ret = add_row(t, err)) != KP_OK)
					break;
				kp_rcell *c = &t->cells[(t->nrows - 1) * 2];
				c[0].type = KP_RV_TEXT;
				c[0].s = kp_arena_strdup(&r->arena, sqlite3_column_name(s, j));
				if (!c[0].s)
					ret = kp_err_set(err, KP_NOMEM, "out of memory");
				else
					ret = set_cell(r, &c[1], s, j, err);
			}
			continue;
		}
		if ((ret = add_row(t, err)) != KP_OK)
			break;
		kp_rcell *c = &t->cells[(t->nrows - 1) * (size_t)t->ncols];
		for (int j = 0; j < nc && ret == KP_OK; j++)
			ret = set_cell(r, &c[j], s, j, err);
	}
	if (ret == KP_OK && rc != SQLITE_DONE)
		ret = kp_err_set(err, kp_interrupted ? KP_INTR : rc == SQLITE_BUSY ? KP_BUSY : KP_ERROR,
				 "report %s: %s", sp->id, kp_interrupted ? "interrupted" : sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return ret;
}

/* the run's id (0: the latest), or an error naming what is missing */
static int find_run(sqlite3 *db, const char *name, int64_t want, int64_t *out, kp_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT id FROM run WHERE ?1 = 0 OR id = ?1 ORDER BY id DESC LIMIT 1", -1, &s,
			       NULL) != SQLITE_OK)
		return kp_err_set(err, KP_ERROR, "%s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, want);
	int rc = sqlite3_step(s);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return kp_err_set(err, rc == SQLITE_BUSY ? KP_BUSY : KP_ERROR, "%s", sqlite3_errmsg(db));
	if (!*out && want && name)
		return kp_err_set(err, KP_ERROR, "no run %lld in '%s'", (long long)want, name);
	if (!*out && want)
		return kp_err_set(err, KP_ERROR, "no run %lld in the database", (long long)want);
	if (!*out && name)
		return kp_err_set(err, KP_ERROR, "no run in '%s' yet: make one with 'kplan plan %s'", name, name);
	if (!*out)
		return kp_err_set(err, KP_ERROR, "no run in the database yet: make one with 'kplan plan'");
	return KP_OK;
}

int kp_report_build(sqlite3 *db, const kp_report_opts *o, kp_report **out, kp_err *err)
{
	*out = NULL;
	kp_report *r = kp_calloc(1, sizeof *r);
	if (!r)
		return kp_err_set(err, KP_NOMEM, "out of memory");
	kp_arena_init(&r->arena, 1 << 16);
	r->no_timing = o->no_timing;
	/* one read transaction: every table sees the same snapshot even while
	 * another kplan imports or plans (BEGIN DEFERRED writes nothing) */
	int rc = KP_OK;
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		rc = kp_err_set(err, KP_ERROR, "%s", sqlite3_errmsg(db));
	} else if (o->compare_a > 0 || o->compare_b > 0) {
		r->compare = 1;
		rc = find_run(db, o->db_name, o->compare_a, &r->run_a, err);
		if (rc == KP_OK)
			rc = find_run(db, o->db_name, o->compare_b, &r->run_b, err);
	} else {
		rc = find_run(db, o->db_name, o->run, &r->run_a, err);
		r->run_b = r->run_a;
	}
	/* the most/least loaded lists: up to 5 nodes, at most half of them */
	int64_t nodes = 0, limit;
	sqlite3_stmt *s;
	if (rc == KP_OK && sqlite3_prepare_v2(db, "SELECT count(*) FROM node", -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			nodes = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	limit = nodes / 2 < 1 ? 1 : nodes / 2 > 5 ? 5 : nodes / 2;
	const spec *sp = r->compare ? cmp_specs : run_specs;
	size_t n = r->compare ? sizeof cmp_specs / sizeof *cmp_specs : sizeof run_specs / sizeof *run_specs;
	for (size_t i = 0; rc == KP_OK && i < n; i++) {
		rc = load(db, r, &sp[i], limit, err);
		if (rc == KP_OK && o->progress)
			o->progress(o->progress_ctx, (int)i + 1, (int)n);
	}
	if (!sqlite3_get_autocommit(db))
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != KP_OK) {
		kp_report_free(r);
		return rc;
	}
	*out = r;
	return KP_OK;
}

void kp_report_free(kp_report *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->ntables; i++)
		kp_free(r->tables[i].cells);
	kp_arena_release(&r->arena);
	kp_free(r);
}

/* ---- helpers for the renderers ---- */

const kp_rtable *kp_report_table(const kp_report *r, const char *id)
{
	for (int i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].id, id))
			return &r->tables[i];
	return NULL;
}

int kp_rtable_col(const kp_rtable *t, const char *key)
{
	for (int j = 0; j < t->ncols; j++)
		if (!strcmp(t->cols[j].key, key))
			return j;
	return -1;
}

double kp_rcell_num(const kp_rcell *c)
{
	return c->type == KP_RV_INT ? (double)c->i : c->type == KP_RV_REAL ? c->d : 0;
}

int kp_rtable_numeric(const kp_rtable *t, int col)
{
	int num = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		int ty = kp_rtable_cell(t, i, col)->type;
		if (ty == KP_RV_TEXT)
			return 0;
		if (ty != KP_RV_NULL)
			num = 1;
	}
	return num || t->cols[col].unit != KP_RU_NONE;
}

const char *kp_report_header(const kp_rcol *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s", c->key);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
	return buf;
}

const char *kp_report_title(const kp_report *r, char *buf, size_t size)
{
	if (r->compare)
		snprintf(buf, size, "kplan report: run %lld compared with run %lld", (long long)r->run_a,
			 (long long)r->run_b);
	else
		snprintf(buf, size, "kplan report: run %lld", (long long)r->run_a);
	return buf;
}

const char *kp_report_raw(const kp_rtable *t, size_t row, int col, char *buf, size_t size)
{
	const kp_rcell *c = kp_rtable_cell(t, row, col);
	switch (c->type) {
	case KP_RV_INT: snprintf(buf, size, "%lld", (long long)c->i); return buf;
	case KP_RV_REAL: snprintf(buf, size, "%.15g", c->d); return buf;
	case KP_RV_TEXT: return c->s;
	default: if (size) buf[0] = 0; return buf;
	}
}

static int is_bytes_resource(const char *res)
{
	return !strcmp(res, "memory") || !strcmp(res, "ephemeral-storage") || !strncmp(res, "hugepages-", 10);
}

/* cores, up to three decimals: 7.91, 4, 0.25 */
static void fmt_cpu(long long v, char *buf, size_t size)
{
	long long a = v < 0 ? -v : v;
	if (a % 1000 == 0) {
		snprintf(buf, size, "%lld", v / 1000);
		return;
	}
	snprintf(buf, size, "%s%lld.%03lld", v < 0 ? "-" : "", a / 1000, a % 1000);
	size_t n = strlen(buf);
	while (n && buf[n - 1] == '0')
		buf[--n] = 0;
}

/* 29.9Gi, 512Mi, 100 (below 1Ki: bytes) */
static void fmt_bytes(long long v, char *buf, size_t size)
{
	static const char *const units[] = { "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	double a = v < 0 ? -(double)v : (double)v;
	if (a < 1024) {
		snprintf(buf, size, "%lld", v);
		return;
	}
	int u = -1;
	while (a >= 1024 && u < 5) {
		a /= 1024;
		u++;
	}
	char num[48];
	snprintf(num, sizeof num, "%.1f", a);
	size_t n = strlen(num);
	if (n > 2 && !strcmp(num + n - 2, ".0"))
		num[n - 2] = 0;
	snprintf(buf, size, "%s%s%s", v < 0 ? "-" : "", num, units[u]);
}

const char *kp_report_human(const kp_rtable *t, size_t row, int col, char *buf, size_t size)
{
	const kp_rcell *c = kp_rtable_cell(t, row, col);
	const kp_rcol *k = &t->cols[col];
	if (c->type == KP_RV_NULL) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (c->type == KP_RV_TEXT)
		return c->s;
	int unit = k->unit;
	if (unit == KP_RU_AMOUNT) {
		const kp_rcell *res = kp_rtable_cell(t, row, k->res_col);
		const char *name = res->type == KP_RV_TEXT ? res->s : "";
		unit = !strcmp(name, "cpu") ? KP_RU_CPU : is_bytes_resource(name) ? KP_RU_BYTES : KP_RU_NONE;
	}
	long long iv = c->type == KP_RV_INT ? (long long)c->i : fabs(c->d) < 9e18 ? (long long)llround(c->d) : 0;
	switch (unit) {
	case KP_RU_PCT: snprintf(buf, size, "%.1f%%", kp_rcell_num(c)); break;
	case KP_RU_CPU: fmt_cpu(iv, buf, size); break;
	case KP_RU_BYTES: fmt_bytes(iv, buf, size); break;
	case KP_RU_SECONDS: snprintf(buf, size, "%.3f s", kp_rcell_num(c)); break;
	default:
		if (c->type == KP_RV_INT)
			snprintf(buf, size, "%lld", (long long)c->i);
		else
			snprintf(buf, size, "%.15g", c->d);
	}
	return buf;
}

int kp_report_render(const kp_report *r, int fmt, kp_sb *out)
{
	switch (fmt) {
	case KP_REPORT_TEXT: return kp_report_text(r, out);
	case KP_REPORT_MARKDOWN: return kp_report_markdown(r, out);
	case KP_REPORT_CSV: return kp_report_csv(r, out);
	case KP_REPORT_JSON: return kp_report_json(r, out);
	case KP_REPORT_HTML: return kp_report_html(r, out);
	default: return KP_ERROR;
	}
}
