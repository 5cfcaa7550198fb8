-- kplan report, section rebalance_nodes: the nodes the moves touch
-- (rebalance_node), per resource: before = where the run's kept, bound and
-- moved pods were before the moves (a moved pod on its move_wave.from_node),
-- after = after them; percentages of allocatable.  The pool is the node's
-- node.kubernetes.io/instance-type label, as plan_quality's
-- (planner/quality.h).  ?1 the run.
WITH t AS (SELECT node_id, moves_out, moves_in, freed FROM rebalance_node WHERE run_id = ?1),
 mv AS (SELECT pod_id, from_node_id FROM move_wave WHERE run_id = ?1),
 placed AS MATERIALIZED (SELECT COALESCE(mv.from_node_id, pl.node_id) AS nb, pl.node_id AS na, p.class_id
  FROM placement pl JOIN pod p ON p.id = pl.pod_id LEFT JOIN mv ON mv.pod_id = pl.pod_id
  WHERE pl.run_id = ?1 AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL),
 side AS MATERIALIZED (SELECT nb AS node_id, class_id, 1 AS b, 0 AS a FROM placed WHERE nb IN (SELECT node_id FROM t)
  UNION ALL SELECT na, class_id, 0, 1 FROM placed WHERE na IN (SELECT node_id FROM t)),
 req AS (SELECT s.node_id, q.resource, sum(q.value * s.b) AS rb, sum(q.value * s.a) AS ra FROM side s
  JOIN class_request q ON q.class_id = s.class_id WHERE q.resource <> 'pods' GROUP BY 1, 2
  UNION ALL SELECT node_id, 'pods', sum(b), sum(a) FROM side GROUP BY 1)
SELECT n.name, COALESCE(pl.value, '(none)'), t.moves_out, t.moves_in, t.freed, r.resource,
 COALESCE(r.allocatable, 0), COALESCE(q.rb, 0), COALESCE(q.ra, 0),
 CASE WHEN r.allocatable > 0 THEN round(100.0 * COALESCE(q.rb, 0) / r.allocatable, 1) END,
 CASE WHEN r.allocatable > 0 THEN round(100.0 * COALESCE(q.ra, 0) / r.allocatable, 1) END
FROM t JOIN node n ON n.id = t.node_id JOIN node_resource r ON r.node_id = t.node_id
LEFT JOIN node_label pl ON pl.node_id = n.id AND pl.key = 'node.kubernetes.io/instance-type'
LEFT JOIN req q ON q.node_id = t.node_id AND q.resource = r.resource
WHERE r.allocatable > 0 OR q.rb > 0 OR q.ra > 0
ORDER BY t.freed DESC, n.name, r.resource <> 'cpu', r.resource <> 'memory', r.resource
