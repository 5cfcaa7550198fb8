-- kplan report, section most_loaded: the ?4 nodes with the highest load after
-- the run (after usage_cte.sql, nodes_cte.sql).
SELECT * FROM nodes WHERE load_after IS NOT NULL ORDER BY load_after DESC, node LIMIT ?4
