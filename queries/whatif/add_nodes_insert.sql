-- what-if --add-nodes (planner/whatif_add_nodes.c): an added node (?1 a
-- negative id), source ?5 the template file
INSERT INTO temp.node(id, name, unschedulable, created, source, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, 0)
