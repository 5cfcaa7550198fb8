-- kplan report, GPU: the start of the GPU statements (not a statement of its
-- own: reports/model.c puts gpu_cte.sql and the section's statement after
-- it).  added: the names of the nodes a what-if run ?1 added (run_node,
-- node_id < 0: they are not in node).  gpu_added_none.sql is the same for
-- a database without run_node.
WITH added AS MATERIALIZED (SELECT node_id, name FROM run_node WHERE run_id = ?1 AND change = 'added'),
