-- what-if --add-nodes (planner/whatif_add_nodes.c): the template's rows of
-- node_resource, in the database in memory; add_nodes_insert_resource.sql
-- writes them, column for column, for each added node
SELECT node_id, resource, allocatable, capacity FROM node_resource
