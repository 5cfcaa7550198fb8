-- what-if --from-run (planner/whatif_mode.c): the labels of run ?1's victims
-- that no controller re-creates
DELETE FROM temp.pod_label WHERE pod_id IN (SELECT p.id FROM temp.pod p JOIN placement pl
	ON pl.pod_id = p.id AND pl.run_id = ?1 AND pl.action = 'evict'
	WHERE COALESCE(p.owner_kind, '') IN ('', 'Node'))
