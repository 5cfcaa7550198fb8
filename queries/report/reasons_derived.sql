-- kplan report, section unschedulable_reasons, for a run made before
-- pod_failure had the decisive column: reasons.sql with every reason's
-- decisiveness derived from its plugin (see there).  ?1 the run.
WITH u AS (SELECT pod_id, reason FROM placement WHERE run_id = ?1 AND action = 'unschedulable')
SELECT f.reason, f.plugin,
 sum((f.plugin NOT IN ('NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity')
  OR NOT EXISTS (SELECT 1 FROM pod_failure g WHERE g.run_id = f.run_id AND g.pod_id = f.pod_id
   AND g.plugin NOT IN ('NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity')))) AS pods,
 count(*) AS pods_any, sum(f.nodes) AS nodes
FROM u JOIN pod_failure f ON f.run_id = ?1 AND f.pod_id = u.pod_id GROUP BY f.plugin, f.reason
UNION ALL
SELECT COALESCE(u.reason, '(no reason recorded)'), NULL, count(*), count(*), NULL FROM u
WHERE NOT EXISTS (SELECT 1 FROM pod_failure f WHERE f.run_id = ?1 AND f.pod_id = u.pod_id) GROUP BY u.reason
ORDER BY 3 DESC, 4 DESC, 1, 2
