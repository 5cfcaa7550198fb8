-- namespaces-by-cpu.sql — namespaces ranked by the cpu their pods request after the latest plan.
--
-- Answers: who uses the cluster?  Running = kept, bound and moved pods; pending = pods the
--          plan could not place (unschedulable, or evicted without a new node).  Finished
--          (Succeeded/Failed) pods take no room and are left out.
-- Run:     kplan query cluster.db - < queries/cookbook/namespaces-by-cpu.sql
-- Columns: namespace, pods (running), cpu_m, memory (running), unplaced_pods, unplaced_cpu_m
WITH r AS (SELECT max(id) AS id FROM run),
x AS (
  SELECT p.namespace, pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL AS running,
         COALESCE((SELECT value FROM class_request q WHERE q.class_id = p.class_id AND q.resource = 'cpu'), 0) AS cpu,
         COALESCE((SELECT value FROM class_request q WHERE q.class_id = p.class_id AND q.resource = 'memory'), 0) AS mem
  FROM placement pl JOIN r ON pl.run_id = r.id JOIN pod p ON p.id = pl.pod_id
  WHERE p.phase NOT IN ('Succeeded', 'Failed'))
SELECT namespace, sum(running) AS pods, sum(CASE WHEN running THEN cpu ELSE 0 END) AS cpu_m,
       sum(CASE WHEN running THEN mem ELSE 0 END) AS memory,
       sum(NOT running) AS unplaced_pods, sum(CASE WHEN running THEN 0 ELSE cpu END) AS unplaced_cpu_m
FROM x
GROUP BY namespace
ORDER BY cpu_m DESC, namespace;
