-- what-if --scale and add-pods (planner/whatif_dra.c): the resourceClaims of
-- a spec, in spec order — the Pod ?1's (?2 = 0) or workload ?1's template's
-- (?2 = 1) — in the cluster's database (--scale) or in the database in
-- memory an add-pods FILE was imported into
SELECT name, claim_name, template, containers, seq FROM pod_resource_claim WHERE ?2 = 0 AND pod_id = ?1
UNION ALL
SELECT name, claim_name, template, containers, seq FROM workload_resource_claim WHERE ?2 = 1 AND workload_id = ?1
ORDER BY 5
