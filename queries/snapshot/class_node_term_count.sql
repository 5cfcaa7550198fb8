-- kplan plan (planner/snapshot_classes.c): node affinity terms per class,
-- required and preferred apart.
SELECT class_id, required, count(*) FROM class_node_term GROUP BY class_id, required
