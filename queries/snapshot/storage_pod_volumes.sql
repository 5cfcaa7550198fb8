-- Every pod's volumes, in spec order.
SELECT pod_id, name, kind, claim, read_only, source, driver, volume_handle, monitors
FROM pod_volume
ORDER BY pod_id, rowid;
