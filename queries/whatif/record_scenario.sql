-- what-if (planner/whatif_record.c): one option of run ?1's scenario
INSERT INTO run_scenario(run_id, seq, option, value, nodes, pods_pending, pods_added,
	pods_removed, effect, result) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
