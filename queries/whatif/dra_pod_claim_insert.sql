-- what-if --scale and add-pods (planner/whatif_dra.c): a resourceClaims
-- entry of pod ?1 (a scenario pod), as the importer stores a generated pod's
-- (importers/store_dra.c): ?6 the claim it uses — resourceClaimName (?7
-- 'spec'), else the name kplan generates for a template (?7 'generated')
INSERT OR REPLACE INTO temp.pod_resource_claim(pod_id, name, seq, claim_name, template, claim, claim_from, containers)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
