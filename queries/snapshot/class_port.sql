-- kplan plan (planner/snapshot_classes.c): the classes' host ports, in spec order.
SELECT class_id, host_ip, protocol, host_port FROM class_port ORDER BY class_id, seq
