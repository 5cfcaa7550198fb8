-- Storage tables of a database imported before the columns the volume
-- plugins read: TEMP views that shadow them with those columns' defaults
-- (dropped by storage_shim_drop.sql after the load).
CREATE TEMP VIEW pv AS SELECT *, 0 AS deleting, NULL AS attributes_class FROM main.pv;
CREATE TEMP VIEW pvc AS SELECT *, 0 AS bind_completed, NULL AS attributes_class FROM main.pvc;
CREATE TEMP VIEW pod_volume AS SELECT *, NULL AS monitors FROM main.pod_volume;
CREATE TEMP VIEW csi_node_info AS SELECT DISTINCT node_name, '' AS migrated_plugins FROM main.csi_node;
