-- what-if --from-run (planner/whatif_mode.c): 1 when run ?1 exists
SELECT count(*) FROM run WHERE id = ?1
