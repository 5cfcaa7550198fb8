-- kplan plan (planner/plan_write.c): a new run; its counts are filled in at
-- the end (run_update.sql).
INSERT INTO run(started, options, config, config_source, seed, kplan)
VALUES(?1, ?2, ?3, ?4, ?5, ?6)
