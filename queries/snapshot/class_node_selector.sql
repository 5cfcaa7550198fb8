-- kplan plan (planner/snapshot_classes.c): the classes' nodeSelector.
SELECT class_id, key, value FROM class_node_selector
