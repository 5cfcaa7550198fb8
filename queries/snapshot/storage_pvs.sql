-- PersistentVolumes, by name (FindMatchingVolume's order among equal capacities).
SELECT id, name, storage_class, capacity, access_modes, volume_mode, phase, claim_ns, claim_name,
       source, driver, volume_handle, node_affinity, deleting, attributes_class
FROM pv
ORDER BY name;
