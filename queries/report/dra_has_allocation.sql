-- kplan report, devices sections: one row when dra_allocation exists:
-- reports/model.c then starts the statements with dra_allocation_cte.sql,
-- else with dra_allocation_none.sql.
SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'dra_allocation'
