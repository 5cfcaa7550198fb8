-- kplan plan (planner/plan_write.c): one reason an unschedulable pod failed
-- on ?5 nodes, and whether it decides the outcome (planner/decisive.h).
INSERT INTO pod_failure(run_id, pod_id, plugin, reason, nodes, decisive)
VALUES(?1, ?2, ?3, ?4, ?5, ?6)
