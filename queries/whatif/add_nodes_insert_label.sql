-- what-if --add-nodes (planner/whatif_add_nodes.c): a template label for
-- added node ?1
INSERT OR REPLACE INTO temp.node_label(node_id, key, value) VALUES(?1, ?2, ?3)
