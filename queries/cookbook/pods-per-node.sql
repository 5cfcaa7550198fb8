-- pods-per-node.sql — how many pods each node runs after the latest plan, and how they got there.
--
-- Answers: which nodes are crowded, and how much of each node's load is new?
-- Run:     kplan query cluster.db - < queries/cookbook/pods-per-node.sql
-- Columns: node, kept (bound before and untouched), bound (placed by the plan), moved_in
--          (re-created after preemption), total, max_pods (allocatable pods), evicted_from
WITH r AS (SELECT max(id) AS id FROM run),
pl AS (SELECT placement.* FROM placement JOIN r ON placement.run_id = r.id)
SELECT n.name AS node,
       (SELECT count(*) FROM pl WHERE pl.node_id = n.id AND pl.action = 'keep') AS kept,
       (SELECT count(*) FROM pl WHERE pl.node_id = n.id AND pl.action = 'bind') AS bound,
       (SELECT count(*) FROM pl WHERE pl.node_id = n.id AND pl.action = 'move') AS moved_in,
       (SELECT count(*) FROM pl WHERE pl.node_id = n.id AND pl.action IN ('keep', 'bind', 'move')) AS total,
       (SELECT allocatable FROM node_resource WHERE node_id = n.id AND resource = 'pods') AS max_pods,
       (SELECT count(*) FROM pl WHERE pl.from_node_id = n.id AND pl.action IN ('move', 'evict')) AS evicted_from
FROM node n
ORDER BY total DESC, n.name;
