-- what-if (planner/whatif_nodes.c): spec.unschedulable on the selected nodes
UPDATE temp.node SET unschedulable = 1 WHERE id IN (SELECT node_id FROM temp.kp_whatif_sel)
