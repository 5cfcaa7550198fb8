-- what-if --add-nodes (planner/whatif_add_slices.c): a template ResourceSlice
-- (?3 name, ?4 driver, ?5 pool, ?6 generation, ?7 slice count, ?8..?10) for
-- added node ?2, id ?1: node-local to it, the slice and the pool named
-- TEMPLATE-NAME-NODE (a pool of its own; docs/what-if.md)
INSERT INTO temp.resource_slice(id, name, driver, pool, pool_generation, pool_slice_count, node_name, api_version,
	source, line, batch_id)
VALUES(?1, ?3 || '-' || ?2, ?4, ?5 || '-' || ?2, ?6, ?7, ?2, ?8, ?9, ?10, NULL)
