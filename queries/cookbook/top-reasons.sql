-- top-reasons.sql — why pods did not fit: the most common filter reasons of the latest run.
--
-- Answers: which plugin and reason reject the most pods, and on how many nodes in total?
--          ("412 pods: Insufficient nvidia.com/gpu" at a glance.)  Counts every pod that
--          ended without a node (unschedulable, and evicted pods whose replacement found none).
-- Run:     kplan query cluster.db - < queries/cookbook/top-reasons.sql
-- Columns: plugin, reason, pods (pods that got this reason), node_verdicts (summed over those pods)
SELECT f.plugin, f.reason, count(*) AS pods, sum(f.nodes) AS node_verdicts
FROM pod_failure f
WHERE f.run_id = (SELECT max(id) FROM run)
GROUP BY f.plugin, f.reason
ORDER BY pods DESC, node_verdicts DESC, f.plugin, f.reason;
