-- kplan plan (planner/snapshot_load.c): every pod, in id order (the snapshot's
-- pod index is this order; kp_snap_pod_index searches it).
SELECT id, namespace, name, class_id, node_name, phase, created, start_time, terminating,
 owner_kind, owner_name, nominated_node, daemon_node FROM pod ORDER BY id
