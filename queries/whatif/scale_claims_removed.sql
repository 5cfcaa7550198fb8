-- what-if --scale (planner/whatif_scale.c): the claims a removed replica
-- owns (owner Pod: its ephemeral volumes') go with it, as the garbage
-- collector takes them — the replicas option ?1 removed and those added
-- earlier in the scenario and removed again (scale_forget.sql).  A
-- StatefulSet's claims stay (persistentVolumeClaimRetentionPolicy Retain)
DELETE FROM temp.pvc WHERE owner_kind = 'Pod' AND EXISTS (SELECT 1 FROM temp.pod p
	WHERE p.namespace = pvc.namespace AND p.name = pvc.owner_name
	AND (p.id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1 AND change = 'removed')
		OR (p.id < 0 AND p.id NOT IN (SELECT pod_id FROM temp.kp_whatif_pod))))
