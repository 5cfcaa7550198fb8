-- empty-nodes.sql — nodes that run nothing but DaemonSet pods after the latest plan.
--
-- Answers: which nodes could be drained and removed (scale-down candidates) once the plan
--          is applied?  DaemonSet pods do not count: they run on every node anyway.
-- Run:     kplan query cluster.db - < queries/cookbook/empty-nodes.sql
-- Columns: node, daemonset_pods, cordoned, taints
WITH r AS (SELECT max(id) AS id FROM run),
after AS (
  SELECT pl.node_id, p.owner_kind = 'DaemonSet' AS daemon
  FROM placement pl JOIN r ON pl.run_id = r.id JOIN pod p ON p.id = pl.pod_id
  WHERE pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL)
SELECT n.name AS node,
       (SELECT count(*) FROM after WHERE after.node_id = n.id) AS daemonset_pods,
       n.unschedulable AS cordoned,
       (SELECT group_concat(t.key || '=' || t.value || ':' || t.effect, ', ') FROM node_taint t WHERE t.node_id = n.id) AS taints
FROM node n
WHERE NOT EXISTS (SELECT 1 FROM after WHERE after.node_id = n.id AND NOT after.daemon)
ORDER BY n.name;
