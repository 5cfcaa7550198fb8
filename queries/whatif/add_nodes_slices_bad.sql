-- what-if --add-nodes (planner/whatif_add_slices.c): the first ResourceSlice
-- of the template that is not node-local to its Node ?1 (spec.nodeName ?1):
-- name, file, line, nodeName, nodeSelector set, allNodes, perDeviceNodeSelection
SELECT name, source, line, node_name, node_selector IS NOT NULL, all_nodes, per_device_node_selection
FROM resource_slice WHERE node_name IS NULL OR node_name <> ?1 OR per_device_node_selection
ORDER BY line, id LIMIT 1
