-- kplan plan (planner/snapshot_classes.c): pod (anti-)affinity terms per class.
SELECT class_id, count(*) FROM class_pod_affinity GROUP BY class_id
