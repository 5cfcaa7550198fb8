-- kplan report, volumes sections: shown when a pod of the cluster has a
-- volume that matters to scheduling (pod_volume: claims, generic ephemeral
-- volumes, in-tree disks, inline CSI).  Run after volumes_tables.sql.
SELECT 1 FROM pod_volume LIMIT 1
