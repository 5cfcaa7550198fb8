-- kplan report, section unschedulable_groups: the unschedulable pods grouped
-- by the set of reasons they failed for, with up to three examples.  ?1 the
-- run.
WITH u AS (SELECT pl.pod_id, pl.reason AS msg, COALESCE(p.namespace || '/' || p.name, '#' || pl.pod_id) AS pod
  FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id WHERE pl.run_id = ?1 AND pl.action = 'unschedulable'),
 s AS MATERIALIZED (SELECT u.pod, COALESCE((SELECT group_concat(reason, '; ') FROM
   (SELECT DISTINCT f.reason FROM pod_failure f WHERE f.run_id = ?1 AND f.pod_id = u.pod_id ORDER BY f.reason)),
   u.msg, '(no reason recorded)') AS reasons FROM u)
SELECT count(*) AS pods, s.reasons,
 (SELECT group_concat(pod, ', ') FROM (SELECT x.pod FROM s x WHERE x.reasons = s.reasons ORDER BY x.pod LIMIT 3))
FROM s GROUP BY s.reasons ORDER BY 1 DESC, 2
