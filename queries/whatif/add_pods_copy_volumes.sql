-- what-if add-pods (planner/whatif_add_pods.c): copy ?1 (named ?2) of the
-- spec of option ?3 gets its volumes: a persistentVolumeClaim volume the same
-- claim (every copy shares it), an in-tree or inline CSI volume as it is, a
-- generic ephemeral volume the claim <copy>-<volume>, a StatefulSet's
-- volumeClaimTemplate the claim <template>-<copy> (add_pods_copy_claims.sql
-- makes both)
INSERT OR REPLACE INTO temp.pod_volume(pod_id, name, kind, claim, read_only, source, driver, volume_handle,
	claim_spec, monitors)
SELECT ?1, name, kind, CASE WHEN template THEN name || '-' || ?2 WHEN kind = 'ephemeral' THEN ?2 || '-' || name
	ELSE claim END, read_only, source, driver, volume_handle, CASE WHEN template THEN NULL ELSE claim_spec END,
	monitors
FROM temp.kp_whatif_spec_volume WHERE seq = ?3 ORDER BY ord
