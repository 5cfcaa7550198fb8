-- what-if --add-nodes (planner/whatif_add_nodes.c): a template image for
-- added node ?1
INSERT OR REPLACE INTO temp.node_image(node_id, seq, name, size_bytes) VALUES(?1, ?2, ?3, ?4)
