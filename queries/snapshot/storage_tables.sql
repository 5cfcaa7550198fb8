-- The storage tables the loader reads all exist (import made them; a
-- database from before them, or with some dropped, has no volumes).
SELECT count(*) = 8 FROM sqlite_master
WHERE type IN ('table', 'view')
  AND name IN ('storage_class', 'csi_driver', 'csi_storage_capacity', 'pv', 'pv_label', 'pvc', 'pod_volume', 'csi_node');
