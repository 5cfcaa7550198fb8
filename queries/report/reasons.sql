-- kplan report, section unschedulable_reasons: per reason and plugin, the
-- unschedulable pods the reason decides (pod_failure.decisive,
-- planner/decisive.h), the pods any node gave it, and the (pod, node) pairs;
-- pods without pod_failure rows under the planner's message.  A row from
-- before the decisive column (NULL) is derived as decisive.h decides: the
-- reason decides unless its plugin is a static filter (NodeUnschedulable,
-- NodeName, TaintToleration, NodeAffinity) and a filter that is not static
-- failed the pod too.  ?1 the run.  reasons_derived.sql: the same for a
-- pod_failure table without the column.
WITH u AS (SELECT pod_id, reason FROM placement WHERE run_id = ?1 AND action = 'unschedulable')
SELECT f.reason, f.plugin,
 sum(COALESCE(f.decisive, (f.plugin NOT IN ('NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity')
  OR NOT EXISTS (SELECT 1 FROM pod_failure g WHERE g.run_id = f.run_id AND g.pod_id = f.pod_id
   AND g.plugin NOT IN ('NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity'))))) AS pods,
 count(*) AS pods_any, sum(f.nodes) AS nodes
FROM u JOIN pod_failure f ON f.run_id = ?1 AND f.pod_id = u.pod_id GROUP BY f.plugin, f.reason
UNION ALL
SELECT COALESCE(u.reason, '(no reason recorded)'), NULL, count(*), count(*), NULL FROM u
WHERE NOT EXISTS (SELECT 1 FROM pod_failure f WHERE f.run_id = ?1 AND f.pod_id = u.pod_id) GROUP BY u.reason
ORDER BY 3 DESC, 4 DESC, 1, 2
