-- what-if --scale (planner/whatif_scale.c): a removed replica is not moved
DELETE FROM temp.kp_whatif_moved WHERE pod_id IN (SELECT pod_id FROM temp.kp_whatif_pod
WHERE seq = ?1 AND change = 'removed')
