-- kplan report, section stranded: plan_stranded as the run wrote it
-- (planner/quality.c), resources in reading order (cpu, memory, then by
-- name).  ?1 the run.
SELECT pool, resource, nodes, allocatable, free, stranded, stranded_nodes, stranded_pct, exhausted_by
FROM plan_stranded WHERE run_id = ?1 ORDER BY pool = '(none)', pool, resource <> 'cpu', resource <> 'memory', resource
