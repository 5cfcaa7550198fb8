-- kplan plan (planner/snapshot_classes.c): the classes' container images, in
-- spec order.
SELECT class_id, image FROM class_container WHERE image IS NOT NULL ORDER BY class_id, seq
