-- what-if --add-nodes (planner/whatif_add_slices.c): the template's
-- ResourceSlices (id; no parent; then what add_nodes_insert_slice.sql takes
-- as ?3...)
SELECT id, NULL, name, driver, pool, pool_generation, pool_slice_count, api_version, source, line
FROM resource_slice ORDER BY id
