-- kplan report: the rest of the start of the node lists (not a statement of
-- its own): reports/model.c puts it after usage_cte.sql and before nodes.sql,
-- most_loaded.sql and least_loaded.sql.  ?1 the run.
--
-- nodes: one row per node: zone, pool (the node.kubernetes.io/instance-type
-- label, as plan_quality's: planner/quality.h), pods before and after the
-- run, and its load before and after: the highest percentage of allocatable
-- over its resources, its dominant resource the one that has it.
, pct AS MATERIALIZED (SELECT node_id, resource,
  CASE WHEN allocatable > 0 THEN 100.0 * rb / allocatable END AS pb,
  CASE WHEN allocatable > 0 THEN 100.0 * ra / allocatable END AS pa FROM usage),
 nload AS (SELECT node_id, round(max(pb), 1) AS lb, round(max(pa), 1) AS la FROM pct GROUP BY node_id),
 dom AS (SELECT node_id, resource, row_number() OVER (PARTITION BY node_id ORDER BY pa DESC, resource) AS k
  FROM pct WHERE pa IS NOT NULL),
 pods_b AS (SELECT node_id, count(*) AS c FROM live GROUP BY node_id),
 pods_a AS (SELECT node_id, count(*) AS c FROM placed WHERE run_id = ?1 GROUP BY node_id),
 nodes AS (SELECT n.name AS node, COALESCE(z.value, '(none)') AS zone, COALESCE(pl.value, '(none)') AS pool,
  n.unschedulable AS cordoned,
  COALESCE(b.c, 0) AS pods_before, COALESCE(a.c, 0) AS pods_after, l.lb AS load_before, l.la AS load_after,
  CASE WHEN l.la > 0 THEN d.resource END AS dominant_resource
  FROM node n LEFT JOIN node_label z ON z.node_id = n.id AND z.key = 'topology.kubernetes.io/zone'
  LEFT JOIN node_label pl ON pl.node_id = n.id AND pl.key = 'node.kubernetes.io/instance-type'
  LEFT JOIN nload l ON l.node_id = n.id LEFT JOIN dom d ON d.node_id = n.id AND d.k = 1
  LEFT JOIN pods_b b ON b.node_id = n.id LEFT JOIN pods_a a ON a.node_id = n.id)
