-- low-cpu-nodes.sql — nodes whose cpu is less than 20 % requested after the latest plan.
--
-- Answers: which nodes are nearly idle once the plan is applied (consolidation candidates)?
-- Run:     kplan query cluster.db - < queries/cookbook/low-cpu-nodes.sql
--          Change the threshold in the `params` line (percent of allocatable cpu).
-- Columns: node, allocatable_m, requested_after_m, percent, pods_after
WITH params(threshold) AS (SELECT 20),
r AS (SELECT max(id) AS id FROM run)
SELECT u.node, u.allocatable AS allocatable_m, u.requested_after AS requested_after_m, u.percent,
       (SELECT count(*) FROM placement pl JOIN node n ON n.id = pl.node_id
        WHERE pl.run_id = (SELECT id FROM r) AND n.name = u.node AND pl.action IN ('keep', 'bind', 'move')) AS pods_after
FROM node_usage u, params
WHERE u.resource = 'cpu' AND u.percent < params.threshold
ORDER BY u.percent, u.node;
