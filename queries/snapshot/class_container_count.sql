-- kplan plan (planner/snapshot_classes.c): containers per class (to size the
-- image arrays).
SELECT class_id, count(*) FROM class_container GROUP BY class_id
