-- kplan plan (planner/snapshot_classes.c): topology spread constraints per class.
SELECT class_id, count(*) FROM class_spread GROUP BY class_id
