-- what-if --from-run (planner/whatif_mode.c): run ?1's other victims are
-- re-created by their controllers, pending
UPDATE temp.pod SET node_name = NULL WHERE id IN (SELECT pod_id FROM placement WHERE run_id = ?1
AND action = 'evict')
