-- what-if --from-run (planner/whatif_mode.c): a bound pod run ?1 left
-- unschedulable (--mode full) is pending
UPDATE temp.pod SET node_name = NULL WHERE node_name IS NOT NULL AND id IN (SELECT pod_id FROM
	placement WHERE run_id = ?1 AND action = 'unschedulable')
