-- what-if --from-run (planner/whatif_mode.c): run ?1's victims that no
-- controller re-creates are gone
DELETE FROM temp.pod WHERE id IN (SELECT pod_id FROM placement WHERE run_id = ?1 AND action = 'evict')
AND COALESCE(owner_kind, '') IN ('', 'Node')
