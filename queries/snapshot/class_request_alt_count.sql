-- kplan plan (planner/snapshot_kube.c): per class, its effective requests of variant ?1.
SELECT class_id, sum(nonzero = 0) FROM class_request_alt WHERE variant = ?1 GROUP BY class_id ORDER BY class_id
