-- what-if --add-nodes (planner/whatif_add_nodes.c): the template's labels
SELECT node_id, key, value FROM node_label
