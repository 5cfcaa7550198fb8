-- kplan capacity --survive zone|LABEL: each value of the node label ?1 (zone:
-- topology.kubernetes.io/zone), the load of its nodes (the mean over cpu and
-- memory of requested / allocatable, bound pods) and how many nodes have it
-- (planner/capacity_survive.c)
SELECT l.value, COALESCE((SELECT avg(CASE WHEN a.allocatable > 0 THEN 1.0 * a.requested / a.allocatable ELSE 0 END)
  FROM node_allocation a JOIN node_label z ON z.node_id = a.node_id AND z.key = ?1 AND z.value = l.value
  WHERE a.resource IN ('cpu', 'memory')), 0), count(*)
FROM node_label l WHERE l.key = ?1 GROUP BY l.value
