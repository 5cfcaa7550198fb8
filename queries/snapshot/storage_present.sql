-- Is there anything for the volume plugins: a pod volume or a CSINode?
SELECT EXISTS (SELECT 1 FROM pod_volume) OR EXISTS (SELECT 1 FROM csi_node);
