-- kplan explain (planner/explain_replay.c): run ?1 (0: the latest), its seed
-- and options.
SELECT id, seed, options FROM run WHERE ?1 = 0 OR id = ?1 ORDER BY id DESC LIMIT 1
