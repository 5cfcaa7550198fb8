-- kplan fix (planner/fix.c): the run to fix — ?1 its id, 0 the latest — and
-- the options it recorded: seed, --config, --no-preemption, --mode, --strategy,
-- --nodes-to-score, --tie-break.
SELECT id, seed,
       CASE WHEN json_valid(options) THEN json_extract(options, '$.config') END,
       CASE WHEN json_valid(options) THEN json_extract(options, '$.no_preemption') END,
       CASE WHEN json_valid(options) THEN json_extract(options, '$.mode') END,
       CASE WHEN json_valid(options) THEN json_extract(options, '$.strategy') END,
       CASE WHEN json_valid(options) THEN json_extract(options, '$.nodes_to_score') END,
       CASE WHEN json_valid(options) THEN json_extract(options, '$.tie_break') END
FROM run WHERE (?1 = 0 OR id = ?1) ORDER BY id DESC LIMIT 1
