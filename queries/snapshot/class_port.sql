-- kplan plan (planner/snapshot_classes.c): the classes' host ports, in spec order;
-- sidecar: a restartable init container's (NodePorts counts them from kube 1.34).
SELECT class_id, host_ip, protocol, host_port, sidecar FROM class_port ORDER BY class_id, seq
