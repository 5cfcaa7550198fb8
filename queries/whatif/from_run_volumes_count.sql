-- what-if --from-run (planner/whatif_mode.c): how many volume decisions run
-- ?1 made (0 when the database has no volume_decision table)
SELECT CASE WHEN EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'volume_decision')
       THEN (SELECT count(*) FROM volume_decision WHERE run_id = ?1) ELSE 0 END;
