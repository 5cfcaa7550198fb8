-- what-if --scale (planner/whatif_scale.c): 1 when workload ?1's template
-- has volumes or volumeClaimTemplates (its replicas get pod_volume rows and
-- claims), else 0
SELECT EXISTS(SELECT 1 FROM workload_volume WHERE workload_id = ?1)
	OR EXISTS(SELECT 1 FROM workload_claim_template WHERE workload_id = ?1)
