-- what-if --scale (planner/whatif_dra.c): 1 when workload ?1's template
-- names resourceClaims (its replicas get pod_resource_claim rows and
-- claims) or one of its pods names some (a removed one's go with it), else 0
SELECT EXISTS(SELECT 1 FROM workload_resource_claim WHERE workload_id = ?1)
	OR EXISTS(SELECT 1 FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.workload_id = ?1)
