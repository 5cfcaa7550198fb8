-- kplan report, section nodes: every node (after usage_cte.sql, nodes_cte.sql).
SELECT * FROM nodes ORDER BY node
