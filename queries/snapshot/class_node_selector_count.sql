-- kplan plan (planner/snapshot_classes.c): nodeSelector entries per class.
SELECT class_id, count(*) FROM class_node_selector GROUP BY class_id
