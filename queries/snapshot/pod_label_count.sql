-- kplan plan (planner/snapshot_load.c): labels per pod, in pod id order.
SELECT pod_id, count(*) FROM pod_label GROUP BY pod_id ORDER BY pod_id
