-- what-if --add-nodes (planner/whatif_add_nodes.c): the template's images
SELECT node_id, seq, name, size_bytes FROM node_image
