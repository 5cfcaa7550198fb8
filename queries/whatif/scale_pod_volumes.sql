-- what-if --scale (planner/whatif_scale.c): an added replica (?1, named ?2)
-- of workload ?3 gets its volumes as the importer gives a generated pod
-- them (queries/import/pod_volume_from_template.sql, _from_claims.sql): the
-- template's, an ephemeral volume's claim <pod>-<volume>; and one PVC volume
-- per volumeClaimTemplate, claim <template>-<pod>, in place of a template
-- volume of the same name
INSERT OR REPLACE INTO temp.pod_volume(pod_id, name, kind, claim, read_only, source, driver, volume_handle,
	claim_spec, monitors)
SELECT ?1, name, kind, CASE kind WHEN 'ephemeral' THEN ?2 || '-' || name ELSE claim END, read_only, source,
	driver, volume_handle, claim_spec, monitors
FROM workload_volume WHERE workload_id = ?3
	AND name NOT IN (SELECT name FROM workload_claim_template WHERE workload_id = ?3)
UNION ALL
SELECT ?1, name, 'pvc', name || '-' || ?2, 0, NULL, NULL, NULL, NULL, NULL
FROM workload_claim_template WHERE workload_id = ?3
