-- what-if --add-nodes (planner/whatif_add_slices.c): the template slices'
-- devices (id; the slice's)
SELECT id, slice_id, name, seq, allow_multiple_allocations, binds_to_node, node_name, node_selector, all_nodes
FROM slice_device ORDER BY slice_id, seq
