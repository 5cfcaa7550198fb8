-- kplan import (importers/store_dra.c): one device of a ResourceSlice.
INSERT INTO slice_device(slice_id, name, seq, allow_multiple_allocations, binds_to_node, node_name, node_selector,
                         all_nodes)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
