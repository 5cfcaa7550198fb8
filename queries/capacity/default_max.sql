-- kplan capacity --pod/--workload: the default --max (planner/capacity_fit.c).
-- ?1 the spec's class, ?2 the cap (KP_CAPACITY_MAX_REPLICAS).  Over the nodes,
-- the replicas the free capacity (allocatable minus the bound pods' requests;
-- free pod slots) holds for the scarcest resource the spec requests: the sum
-- (each node at most ?2), and how many nodes have no limit (no resource the
-- spec requests, no pod slots).
WITH req AS (SELECT resource, value FROM class_request WHERE class_id = ?1 AND value > 0 AND resource <> 'pods'),
 per_res AS (
  SELECT n.id AS node_id, max(0, COALESCE(r.allocatable, 0) - COALESCE((SELECT sum(q2.value) FROM pod p
   JOIN class_request q2 ON q2.class_id = p.class_id AND q2.resource = q.resource WHERE p.node_name = n.name
   AND p.phase NOT IN ('Succeeded', 'Failed')), 0)) / q.value AS k
  FROM node n CROSS JOIN req q LEFT JOIN node_resource r ON r.node_id = n.id AND r.resource = q.resource
  UNION ALL
  SELECT n.id, max(0, r.allocatable - (SELECT count(*) FROM pod p WHERE p.node_name = n.name
   AND p.phase NOT IN ('Succeeded', 'Failed'))) FROM node n JOIN node_resource r ON r.node_id = n.id
   AND r.resource = 'pods'),
 per AS (SELECT node_id, min(k) AS k FROM per_res GROUP BY node_id)
SELECT COALESCE(sum(min(k, ?2)), 0), (SELECT count(*) FROM node) - count(*) FROM per
