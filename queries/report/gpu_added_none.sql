-- kplan report, GPU: gpu_added_cte.sql for a database without run_node: no
-- row.
WITH added AS MATERIALIZED (SELECT NULL AS node_id, NULL AS name WHERE 0),
