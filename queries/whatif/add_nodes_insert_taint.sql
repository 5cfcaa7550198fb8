-- what-if --add-nodes (planner/whatif_add_nodes.c): a template taint for
-- added node ?1
INSERT OR REPLACE INTO temp.node_taint(node_id, seq, key, value, effect) VALUES(?1, ?2, ?3, ?4, ?5)
