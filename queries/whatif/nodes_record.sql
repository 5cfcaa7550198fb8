-- what-if (planner/whatif_nodes.c): the selected nodes, for run_node, as
-- change ?2 of option ?1
INSERT OR IGNORE INTO temp.kp_whatif_node(node_id, name, change, seq)
SELECT node_id, name, ?2, ?1 FROM temp.kp_whatif_sel
