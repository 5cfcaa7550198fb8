-- kplan plan (planner/plan_gang.c): PodGroups and Workloads (scheduling.k8s.io)
-- imported, for the warning when the Workload API is off; Jobs that are a
-- Workload's controllerRef with no PodGroup made from that Workload (the
-- Job controller would make it: WorkloadWithJob, not modelled).
SELECT (SELECT count(*) FROM pod_group), (SELECT count(*) FROM sched_workload),
       (SELECT count(*) FROM workload w WHERE w.kind = 'Job'
          AND EXISTS (SELECT 1 FROM sched_workload s WHERE s.namespace = w.namespace AND s.controller_kind = 'Job'
                      AND s.controller_name = w.name
                      AND NOT EXISTS (SELECT 1 FROM pod_group pg WHERE pg.namespace = s.namespace
                                      AND pg.workload_name = s.name)))
