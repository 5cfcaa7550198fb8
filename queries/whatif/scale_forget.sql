-- what-if --scale (planner/whatif_scale.c): a pod added earlier in the
-- scenario and removed again never existed
DELETE FROM temp.kp_whatif_pod WHERE pod_id = ?1
