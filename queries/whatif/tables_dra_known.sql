-- what-if (planner/whatif_dra.c, wi_dra_known): 4 when the database has the
-- tables of pods' and workloads' resourceClaims, of ResourceClaims and of
-- ResourceClaimTemplates (a database made before the DRA tables has none:
-- its pods and workloads name no claims to copy)
SELECT count(*) FROM main.sqlite_schema WHERE type = 'table'
	AND name IN ('pod_resource_claim', 'resource_claim', 'resource_claim_template', 'workload_resource_claim')
