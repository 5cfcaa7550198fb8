-- kplan plan (planner/plan_gang.c): every pod with a scheduling group, with its
-- group's policy (the PodGroup's; 1.35: its Workload's pod group template),
-- grouped: one group is consecutive rows.  found = 0: no such PodGroup (or
-- Workload template) was imported; workload_found: the 1.35 Workload was.  v135 = 1: the 1.35 form (workloadRef).
SELECT g.pod_id, g.namespace, g.pod_group, g.workload, COALESCE(g.replica_key, ''),
       COALESCE(pg.policy, t.policy, 'basic'), COALESCE(pg.min_count, t.min_count, 1),
       pg.id IS NOT NULL OR t.workload_id IS NOT NULL AS found, g.workload IS NOT NULL AS v135,
       COALESCE(pg.disruption_mode, t.disruption_mode, 'Single'), w.id IS NOT NULL AS workload_found,
       -- the group's priority (workload-aware preemption, plan_gang_preempt.c): spec.priority, else
       -- its priorityClassName's value (an imported PriorityClass, else the API server's built-in
       -- ones: pc is KP_KNOWN_PRIORITY_CLASSES of common/priority.h, character for character,
       -- asserted in plan_gang.c), else (no class named) the global default, else 0, as the
       -- priority admission controller fills it; prio_set: the PodGroup named one or the other
       COALESCE(pg.priority, t.priority, pc.value,
                CASE WHEN COALESCE(pg.priority_class, t.priority_class) IS NULL
                     THEN (SELECT value FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END,
                0) AS priority,
       COALESCE(pg.priority, t.priority, pg.priority_class, t.priority_class) IS NOT NULL AS prio_set,
       pg.topology_key IS NOT NULL AS topology
FROM pod_gang g
LEFT JOIN pod_group pg ON g.workload IS NULL AND pg.namespace = g.namespace AND pg.name = g.pod_group
LEFT JOIN sched_workload w ON g.workload IS NOT NULL AND w.namespace = g.namespace AND w.name = g.workload
LEFT JOIN sched_workload_template t ON t.workload_id = w.id AND t.name = g.pod_group
LEFT JOIN (SELECT id, name, value, preemption_policy FROM priority_class UNION ALL SELECT NULL, column1, column2, 'PreemptLowerPriority' FROM (VALUES ('system-node-critical', 2000001000), ('system-cluster-critical', 2000000000)) WHERE column1 NOT IN (SELECT name FROM priority_class)) pc ON pc.name = COALESCE(pg.priority_class, t.priority_class)
ORDER BY g.namespace, g.workload IS NOT NULL, g.workload, g.pod_group, COALESCE(g.replica_key, ''), g.pod_id
