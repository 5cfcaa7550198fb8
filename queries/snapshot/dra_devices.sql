-- Devices of a slice (?1), in spec order.
SELECT id, name, allow_multiple_allocations, binds_to_node, node_name, node_selector, all_nodes
FROM slice_device WHERE slice_id = ?1 ORDER BY seq;
