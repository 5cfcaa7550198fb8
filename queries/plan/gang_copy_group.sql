-- kplan capacity --pod (planner/plan_gang.c load_copies): the PodGroup ?1/?2 a gang of copies is made
-- from: its priority resolved as gang_members.sql does, whether it names one, whether it has
-- topology constraints, its disruptionMode.
SELECT COALESCE(pg.priority, (SELECT value FROM priority_class WHERE name = pg.priority_class),
                CASE pg.priority_class WHEN 'system-node-critical' THEN 2000001000
                     WHEN 'system-cluster-critical' THEN 2000000000 END,
                CASE WHEN pg.priority_class IS NULL
                     THEN (SELECT value FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END,
                0),
       COALESCE(pg.priority, pg.priority_class) IS NOT NULL, pg.topology_key IS NOT NULL,
       COALESCE(pg.disruption_mode, 'Single')
FROM pod_group pg WHERE pg.namespace = ?1 AND pg.name = ?2
