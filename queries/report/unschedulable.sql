-- kplan report, section unschedulable: every unschedulable pod, its cpu and
-- memory requests and the planner's message.  ?1 the run.
SELECT p.namespace, COALESCE(p.name, '#' || pl.pod_id), c.value, m.value, pl.reason
FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id
LEFT JOIN class_request c ON c.class_id = p.class_id AND c.resource = 'cpu'
LEFT JOIN class_request m ON m.class_id = p.class_id AND m.resource = 'memory'
WHERE pl.run_id = ?1 AND pl.action = 'unschedulable' ORDER BY 1, 2
