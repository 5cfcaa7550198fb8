-- kplan report: the start of the statements over node utilisation (not a
-- statement of its own): reports/model.c puts it before resources.sql,
-- node_usage.sql, zones.sql, compare_resources.sql and compare_usage.sql,
-- and before nodes_cte.sql for the node lists.  ?1 the run (run A of a
-- comparison), ?2 run B (= ?1 for a plain report).
--
-- usage: one row per node and resource.  rb (before): the requests of the
-- pods bound to the node when the run started (not Succeeded/Failed); ra
-- (after ?1), rc (after ?2): the requests of the pods the run keeps, binds or
-- moves there.  The pods resource counts pods.  Resources a node lists with 0
-- allocatable and nothing requested (hugepages-1Gi: 0) are left out.
WITH nres AS (
  SELECT n.id AS node_id, n.name AS node, n.unschedulable AS cordoned,
         COALESCE(z.value, '(none)') AS zone, r.resource, COALESCE(r.allocatable, 0) AS allocatable
  FROM node n JOIN node_resource r ON r.node_id = n.id
  LEFT JOIN node_label z ON z.node_id = n.id AND z.key = 'topology.kubernetes.io/zone'),
 live AS MATERIALIZED (SELECT n.id AS node_id, p.class_id FROM node n JOIN pod p ON p.node_name = n.name
  WHERE p.phase NOT IN ('Succeeded', 'Failed')),
 placed AS MATERIALIZED (SELECT pl.run_id, pl.node_id, p.class_id FROM placement pl JOIN pod p ON p.id = pl.pod_id
  WHERE pl.run_id IN (?1, ?2) AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL),
 req_before AS MATERIALIZED (
  SELECT live.node_id, q.resource, SUM(q.value) AS v FROM live JOIN class_request q ON q.class_id = live.class_id
  WHERE q.resource <> 'pods' GROUP BY 1, 2
  UNION ALL SELECT node_id, 'pods', count(*) FROM live GROUP BY 1),
 req_after AS MATERIALIZED (
  SELECT placed.run_id, placed.node_id, q.resource, SUM(q.value) AS v FROM placed
  JOIN class_request q ON q.class_id = placed.class_id WHERE q.resource <> 'pods' GROUP BY 1, 2, 3
  UNION ALL SELECT run_id, node_id, 'pods', count(*) FROM placed GROUP BY 1, 2),
 usage AS MATERIALIZED (
  SELECT x.*, COALESCE(b.v, 0) AS rb, COALESCE(a.v, 0) AS ra, COALESCE(c.v, 0) AS rc
  FROM nres x LEFT JOIN req_before b ON b.node_id = x.node_id AND b.resource = x.resource
  LEFT JOIN req_after a ON a.run_id = ?1 AND a.node_id = x.node_id AND a.resource = x.resource
  LEFT JOIN req_after c ON c.run_id = ?2 AND c.node_id = x.node_id AND c.resource = x.resource
  WHERE x.allocatable > 0 OR b.v > 0 OR a.v > 0 OR c.v > 0)
