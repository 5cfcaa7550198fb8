-- kplan plan (planner/snapshot_classes.c): tolerations per class.
SELECT class_id, count(*) FROM class_toleration GROUP BY class_id
