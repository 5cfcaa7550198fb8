-- kplan explain (planner/explain_replay.c): the what-if options of a run's
-- options ?1 (JSON, cmd_plan.c writes it), as (option, value), in the order
-- given.
SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')
FROM json_each(?1, '$.whatif') WHERE json_valid(?1) ORDER BY key
