-- kplan fix (planner/fix.c): the unschedulable pods of run ?1 in queue order,
-- at most ?2, with the count of all of them (the window's count column).
SELECT p.id, p.namespace, p.name, COALESCE(pp.priority, 0), p.class_id, count(*) OVER ()
FROM placement pl JOIN pod p ON p.id = pl.pod_id LEFT JOIN pod_priority pp ON pp.pod_id = p.id
WHERE pl.run_id = ?1 AND pl.action = 'unschedulable'
ORDER BY pl.seq, p.id LIMIT ?2
