-- kplan plan (planner/snapshot_kube.c): the classes' requests of variant ?1
-- (a gate off: schema.sql class_request_alt), nonzero rows after the others.
SELECT class_id, nonzero, resource, value FROM class_request_alt WHERE variant = ?1 ORDER BY class_id, nonzero, resource
