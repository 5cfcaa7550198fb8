-- kplan plan (planner/snapshot_classes.c): host ports per class.
SELECT class_id, count(*) FROM class_port GROUP BY class_id
