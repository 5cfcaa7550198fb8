-- kplan plan (planner/snapshot_classes.c): class_port.sql for a database
-- imported before class_port.sidecar (only regular containers' ports were kept).
SELECT class_id, host_ip, protocol, host_port, 0 FROM class_port ORDER BY class_id, seq
