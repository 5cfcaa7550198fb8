-- kplan explain (planner/explain_replay.c): the plan options a run's options
-- ?1 (JSON, cmd_plan.c writes it) record: config, no_preemption, reference,
-- mode, strategy, rebalance settings, rebalance's strategies joined by
-- commas, --nodes-to-score and --tie-break.  No row when ?1 is not JSON.
SELECT json_extract(?1, '$.config'), json_extract(?1, '$.no_preemption'),
       json_extract(?1, '$.reference'), json_extract(?1, '$.mode'),
       json_extract(?1, '$.strategy'), json_extract(?1, '$.rebalance'),
       (SELECT group_concat(value, ',') FROM json_each(?1, '$.rebalance.strategies')),
       json_extract(?1, '$.nodes_to_score'), json_extract(?1, '$.tie_break') WHERE json_valid(?1)
