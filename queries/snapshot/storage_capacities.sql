-- CSIStorageCapacity objects grouped by storage class (as storage_classes.sql orders them).
SELECT storage_class, node_topology, capacity, maximum_volume_size, namespace, name
FROM csi_storage_capacity
ORDER BY storage_class, namespace, name;
