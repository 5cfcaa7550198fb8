-- what-if (planner/whatif_nodes.c): the selected nodes' names, for messages
SELECT name FROM temp.kp_whatif_sel ORDER BY name
