-- kplan plan (planner/snapshot_classes.c): requests per class (to size the arrays).
SELECT class_id, count(*) FROM class_request GROUP BY class_id
