-- kplan report, section quality: plan_quality as the run wrote it
-- (planner/quality.c).  ?1 the run.
SELECT pool, nodes, nodes_used, bound, bound_by, gap_pct FROM plan_quality WHERE run_id = ?1
ORDER BY pool = '(none)', pool
