-- kplan report, section least_loaded: the ?4 nodes with the lowest load after
-- the run (after usage_cte.sql, nodes_cte.sql).
SELECT * FROM nodes WHERE load_after IS NOT NULL ORDER BY load_after, node LIMIT ?4
