-- kplan capacity --survive node: each node, its load (the mean over cpu and
-- memory of requested / allocatable, bound pods) and 1 node
-- (planner/capacity_survive.c)
SELECT n.name, COALESCE((SELECT avg(CASE WHEN a.allocatable > 0 THEN 1.0 * a.requested / a.allocatable ELSE 0 END)
  FROM node_allocation a WHERE a.node_id = n.id AND a.resource IN ('cpu', 'memory')), 0), 1
FROM node n
