-- Is there anything for the volume plugins?  The storage tables exist
-- (import made them) and hold a pod volume or a storage object.
SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'pod_volume') = 1
   AND ((SELECT count(*) FROM (SELECT 1 FROM pod_volume LIMIT 1)) +
        (SELECT count(*) FROM (SELECT 1 FROM csi_node LIMIT 1))) > 0;
