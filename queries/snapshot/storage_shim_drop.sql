DROP VIEW IF EXISTS temp.pv;
DROP VIEW IF EXISTS temp.pvc;
DROP VIEW IF EXISTS temp.pod_volume;
DROP VIEW IF EXISTS temp.csi_node_info;
