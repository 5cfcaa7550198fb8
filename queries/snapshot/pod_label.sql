-- kplan plan (planner/snapshot_load.c): the pods' labels, in pod id order.
SELECT pod_id, key, value FROM pod_label ORDER BY pod_id
