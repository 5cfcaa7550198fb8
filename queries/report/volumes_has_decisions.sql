-- kplan report, volumes sections: one row when volume_decision exists (plan
-- makes it with the first decision it writes): reports/model.c then starts
-- the statements with volumes_decisions_cte.sql, else with
-- volumes_decisions_none.sql.
SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'volume_decision'
