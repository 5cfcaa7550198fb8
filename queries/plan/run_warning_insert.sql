-- kplan plan (planner/plan_write.c): one warning of the run.
INSERT INTO run_warning(run_id, kind, message, pods) VALUES(?1, ?2, ?3, ?4)
