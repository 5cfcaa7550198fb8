-- what-if --add-nodes (planner/whatif_add_slices.c): a row of
-- add_nodes_read_device.sql, id ?1, in the added slice ?2
INSERT INTO temp.slice_device(id, slice_id, name, seq, allow_multiple_allocations, binds_to_node, node_name,
	node_selector, all_nodes)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
