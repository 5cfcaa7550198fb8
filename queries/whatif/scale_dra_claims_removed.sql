-- what-if --scale (planner/whatif_scale.c): the ResourceClaims a removed
-- replica owns (owner Pod: those made from its templates) go with it, as the
-- garbage collector takes them — the replicas option ?1 removed and those
-- added earlier in the scenario and removed again (scale_forget.sql).  A
-- claim it names by resourceClaimName stays
DELETE FROM temp.resource_claim WHERE owner_kind = 'Pod' AND EXISTS (SELECT 1 FROM temp.pod p
	WHERE p.namespace = resource_claim.namespace AND p.name = resource_claim.owner_name
	AND (p.id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1 AND change = 'removed')
		OR (p.id < 0 AND p.id NOT IN (SELECT pod_id FROM temp.kp_whatif_pod))))
