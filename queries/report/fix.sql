-- kplan report, section fix: kplan fix's rows for the run (planner/fix.c), on a
-- fix table from before the rank column: one row a pod.  ?1 the run.
-- fix_ranked.sql is the same for a fix table with rank.
SELECT namespace, pod, kind, detail, victims, result_node FROM fix WHERE run_id = ?1 ORDER BY namespace, pod
