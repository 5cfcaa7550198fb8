-- kplan fix (planner/fix.c): how many pods run ?1 left unschedulable (when
-- targets.sql's window holds none, its count column is missing).
SELECT count(*) FROM placement WHERE run_id = ?1 AND action = 'unschedulable'
