-- what-if --add-nodes (planner/whatif_add_nodes.c): kubernetes.io/hostname is
-- the added node's own name, not the template's
INSERT OR REPLACE INTO temp.node_label(node_id, key, value)
VALUES(?1, 'kubernetes.io/hostname', ?2)
