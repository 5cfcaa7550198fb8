-- kplan report, section fix: kplan fix's rows for the run (planner/fix.c), per
-- pod its best candidate (rank 1).  ?1 the run.  fix.sql: a fix table from
-- before rank.
SELECT namespace, pod, kind, detail, victims, result_node FROM fix WHERE run_id = ?1 AND rank = 1 ORDER BY namespace, pod
