-- kplan capacity --nodes-needed: per resource, what the pending pods request
-- and what is free over all nodes (allocatable minus the bound pods'
-- requests, per node, 0 when over-committed; pod slots: free slots), for the
-- lower bound ceil((requested - free) / the template's allocatable)
-- (planner/capacity_nodes.c).  The pending pods that can never fit on the
-- template (temp.kp_cap_never) are left out.  Resources in reading order.
WITH pend AS (SELECT id, class_id FROM pod WHERE node_name IS NULL AND phase NOT IN ('Succeeded', 'Failed')
  AND id NOT IN (SELECT pod_id FROM temp.kp_cap_never)),
 need AS (SELECT q.resource, sum(q.value) AS v FROM pend p JOIN class_request q ON q.class_id = p.class_id
  WHERE q.resource <> 'pods' GROUP BY q.resource
  UNION ALL SELECT 'pods', count(*) FROM pend),
 free AS (SELECT a.resource, sum(max(0, a.allocatable - a.requested)) AS v FROM node_allocation a
  WHERE a.resource <> 'pods' GROUP BY a.resource
  UNION ALL SELECT 'pods', sum(max(0, r.allocatable - (SELECT count(*) FROM pod p WHERE p.node_name = n.name
   AND p.phase NOT IN ('Succeeded', 'Failed')))) FROM node n JOIN node_resource r ON r.node_id = n.id
   AND r.resource = 'pods')
SELECT n.resource, n.v, COALESCE(f.v, 0) FROM need n LEFT JOIN free f ON f.resource = n.resource
WHERE n.v > 0 ORDER BY n.resource <> 'cpu', n.resource <> 'memory', n.resource
