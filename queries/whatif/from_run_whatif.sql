-- what-if --from-run (planner/whatif_mode.c): 1 when run ?1 planned a what-if
-- scenario
SELECT json_extract(options, '$.whatif') IS NOT NULL FROM run WHERE id = ?1
