-- what-if --add-nodes (planner/whatif_add_nodes.c): an added node, for run_node
INSERT INTO temp.kp_whatif_node(node_id, name, change, seq) VALUES(?1, ?2, 'added', ?3)
