-- what-if --add-nodes (planner/whatif_add_nodes.c): the template's taints
SELECT node_id, seq, key, value, effect FROM node_taint
