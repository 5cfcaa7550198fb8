-- PersistentVolumeClaims.
SELECT id, namespace, name, storage_class, request, access_modes, volume_mode, volume_name, phase, selector,
       selected_node, deleting, owner_kind, owner_name, bind_completed, attributes_class
FROM pvc
ORDER BY namespace, name;
