-- what-if (planner/whatif_nodes.c): no node selected yet
DELETE FROM temp.kp_whatif_sel
