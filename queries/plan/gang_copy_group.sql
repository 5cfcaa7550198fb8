-- kplan capacity --pod (planner/plan_gang.c load_copies): the PodGroup ?1/?2 a gang of copies is made
-- from: its priority resolved as gang_members.sql does, whether it names one, whether it has
-- topology constraints, its disruptionMode.  The subquery pc is KP_KNOWN_PRIORITY_CLASSES of
-- common/priority.h, character for character (asserted in plan_gang.c).
SELECT COALESCE(pg.priority, pc.value,
                CASE WHEN pg.priority_class IS NULL
                     THEN (SELECT value FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END,
                0),
       COALESCE(pg.priority, pg.priority_class) IS NOT NULL, pg.topology_key IS NOT NULL,
       COALESCE(pg.disruption_mode, 'Single')
FROM pod_group pg
LEFT JOIN (SELECT id, name, value, preemption_policy FROM priority_class UNION ALL SELECT NULL, column1, column2, 'PreemptLowerPriority' FROM (VALUES ('system-node-critical', 2000001000), ('system-cluster-critical', 2000000000)) WHERE column1 NOT IN (SELECT name FROM priority_class)) pc ON pc.name = pg.priority_class
WHERE pg.namespace = ?1 AND pg.name = ?2
