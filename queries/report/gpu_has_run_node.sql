-- kplan report, GPU sections: one row when run_node exists (what-if runs'
-- nodes): reports/model.c then starts the statements with
-- gpu_added_cte.sql, else with gpu_added_none.sql.
SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run_node'
