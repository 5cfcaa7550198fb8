-- kplan plan (planner/snapshot_classes.c): the classes' tolerations, in spec order.
SELECT class_id, key, operator, value, effect FROM class_toleration ORDER BY class_id, seq
