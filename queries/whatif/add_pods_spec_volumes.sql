-- what-if add-pods (planner/whatif_add_pods.c): the volumes of the spec in
-- the database in memory the file was imported into — the Pod ?1's (?2 = 0)
-- or workload ?1's template's (?2 = 1), in spec order — and, for a
-- StatefulSet, one claim volume per volumeClaimTemplate (template = 1, its
-- spec as JSON in claim_spec, the form of an ephemeral volume's), in place of
-- a template volume of the same name, as the StatefulSet controller does.
-- Columns as temp.kp_whatif_spec_volume (add_pods_volumes_table.sql) from ord.
SELECT row_number() OVER (ORDER BY template, k), name, kind, claim, read_only, source, driver, volume_handle,
	claim_spec, monitors, template
FROM (SELECT 0 AS template, rowid AS k, name, kind, claim, read_only, source, driver, volume_handle, claim_spec,
		monitors
	FROM pod_volume WHERE ?2 = 0 AND pod_id = ?1
	UNION ALL
	SELECT 0, rowid, name, kind, claim, read_only, source, driver, volume_handle, claim_spec, monitors
	FROM workload_volume WHERE ?2 = 1 AND workload_id = ?1
		AND name NOT IN (SELECT name FROM workload_claim_template WHERE workload_id = ?1)
	UNION ALL
	SELECT 1, seq, name, 'pvc', NULL, 0, NULL, NULL, NULL, json_object('storage_class', storage_class,
		'request', request, 'access_modes', access_modes, 'volume_mode', volume_mode, 'selector', json(selector),
		'attributes_class', attributes_class), NULL
	FROM workload_claim_template WHERE ?2 = 1 AND workload_id = ?1)
