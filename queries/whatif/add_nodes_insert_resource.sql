-- what-if --add-nodes (planner/whatif_add_nodes.c): a row of
-- add_nodes_read_resource.sql for added node ?1
INSERT OR REPLACE INTO temp.node_resource(node_id, resource, allocatable, capacity) VALUES(?1, ?2, ?3, ?4)
