-- what-if --scale (planner/whatif_scale.c): the resourceClaims entries of
-- the replicas option ?1 removed, and of those added earlier in the scenario
-- and removed again (scale_forget.sql)
DELETE FROM temp.pod_resource_claim WHERE pod_id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1
	AND change = 'removed') OR (pod_id < 0 AND pod_id NOT IN (SELECT pod_id FROM temp.kp_whatif_pod))
