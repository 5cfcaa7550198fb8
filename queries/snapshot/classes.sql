-- kplan plan (planner/snapshot_classes.c): every scheduling class, by id,
-- with its priority and preemption policy resolved as the Priority admission
-- plugin does (the pod_priority view of schema.sql): spec.priority, else the
-- named PriorityClass, else the globalDefault class (the lowest one if
-- several claim it), else 0.  The subquery pc is KP_KNOWN_PRIORITY_CLASSES of
-- common/priority.h, character for character: the API server's built-in
-- classes are known without an import.
SELECT c.id, c.namespace, c.scheduler_name,
 COALESCE(c.priority, pc.value, CASE WHEN c.priority_class IS NULL THEN
  (SELECT value FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END, 0),
 COALESCE(c.preemption_policy, pc.preemption_policy, CASE WHEN c.priority_class IS NULL THEN
  (SELECT preemption_policy FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END,
  'PreemptLowerPriority'),
 c.nonzero_cpu, c.nonzero_memory, c.scheduling_gates, c.pvc_volumes, c.has_required_node_affinity,
 c.priority_class IS NOT NULL AND pc.name IS NULL
FROM pod_class c LEFT JOIN (SELECT id, name, value, preemption_policy FROM priority_class UNION ALL SELECT NULL, column1, column2, 'PreemptLowerPriority' FROM (VALUES ('system-node-critical', 2000001000), ('system-cluster-critical', 2000000000)) WHERE column1 NOT IN (SELECT name FROM priority_class)) pc ON pc.name = c.priority_class ORDER BY c.id
