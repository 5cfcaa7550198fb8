-- kplan plan (planner/snapshot_kube.c): the node features each class's pods require, sorted.
SELECT class_id, feature FROM class_feature ORDER BY class_id, feature
