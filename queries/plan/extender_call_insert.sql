-- One call a run made to an HTTP scheduler extender (planner/plan_extender.c).
INSERT INTO extender_call(run_id, seq, pod_id, extender, verb, outcome, nodes, passed, ms, message)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
