-- kplan import (importers/store_storage.c): a CSIStorageCapacity, new or
-- replacing the one of its namespace and name.
INSERT INTO csi_storage_capacity(namespace, name, storage_class, node_topology, capacity,
                                 maximum_volume_size, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
ON CONFLICT(namespace, name) DO UPDATE SET
    storage_class = excluded.storage_class, node_topology = excluded.node_topology,
    capacity = excluded.capacity, maximum_volume_size = excluded.maximum_volume_size,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id
