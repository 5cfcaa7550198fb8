-- what-if --scale (planner/whatif_scale.c): added pods removed again
DELETE FROM temp.pod WHERE id < 0 AND id NOT IN (SELECT pod_id FROM temp.kp_whatif_pod)
