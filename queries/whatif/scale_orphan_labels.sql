-- what-if --scale (planner/whatif_scale.c): the labels of added pods that
-- were removed again (scale_forget.sql)
DELETE FROM temp.pod_label WHERE pod_id < 0 AND pod_id NOT IN (SELECT pod_id FROM
temp.kp_whatif_pod)
