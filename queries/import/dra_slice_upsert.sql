-- kplan import (importers/store_dra.c): a ResourceSlice, new or replacing
-- the one of its name; returns its id (for its counters and devices).
INSERT INTO resource_slice(name, driver, pool, pool_generation, pool_slice_count, node_name, node_selector,
                           all_nodes, per_device_node_selection, api_version, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
ON CONFLICT(name) DO UPDATE SET
    driver = excluded.driver, pool = excluded.pool, pool_generation = excluded.pool_generation,
    pool_slice_count = excluded.pool_slice_count, node_name = excluded.node_name,
    node_selector = excluded.node_selector, all_nodes = excluded.all_nodes,
    per_device_node_selection = excluded.per_device_node_selection, api_version = excluded.api_version,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id
RETURNING id
