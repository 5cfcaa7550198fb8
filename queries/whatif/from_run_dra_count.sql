-- what-if --from-run (planner/whatif_mode.c): how many devices run ?1
-- allocated (0 when the database has no dra_allocation table)
SELECT CASE WHEN EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'dra_allocation')
       THEN (SELECT count(*) FROM dra_allocation WHERE run_id = ?1) ELSE 0 END;
