-- kplan report, section warnings: what the planner met and does not model
-- (run_warning).  ?1 the run.
SELECT kind, pods, message FROM run_warning WHERE run_id = ?1 ORDER BY kind
