-- what-if --scale (planner/whatif_scale.c): the claims the controllers make
-- for an added replica (?1 in namespace ?2, named ?3, of workload ?4), as
-- the importer generates them (queries/import/pvc_want.sql), unless a claim
-- of that name exists: its ephemeral volumes' <pod>-<volume> (owner Pod)
-- and, for a StatefulSet, <template>-<pod> per volumeClaimTemplate (owner
-- StatefulSet).  generated = 1, never bind-completed; ids negative,
-- ascending from ?5 (never an imported row's, as the scenario's pods)
WITH want(ord, name, storage_class, request, access_modes, volume_mode, selector, attributes_class, owner_kind,
	owner_name, source, line, batch_id) AS (
	SELECT 0, v.claim, json_extract(v.claim_spec, '$.storage_class'), json_extract(v.claim_spec, '$.request'),
		json_extract(v.claim_spec, '$.access_modes'), json_extract(v.claim_spec, '$.volume_mode'),
		json_extract(v.claim_spec, '$.selector'), json_extract(v.claim_spec, '$.attributes_class'),
		'Pod', ?3, p.source, p.line, p.batch_id
	FROM temp.pod_volume v JOIN temp.pod p ON p.id = v.pod_id
	WHERE v.pod_id = ?1 AND v.kind = 'ephemeral' AND v.claim_spec IS NOT NULL
	UNION ALL
	SELECT 1 + t.seq, t.name || '-' || ?3, t.storage_class, t.request, t.access_modes, t.volume_mode, t.selector,
		t.attributes_class, 'StatefulSet', w.name, w.source, w.line, w.batch_id
	FROM workload_claim_template t JOIN workload w ON w.id = t.workload_id
	WHERE t.workload_id = ?4 AND w.kind = 'StatefulSet')
INSERT OR IGNORE INTO temp.pvc(id, namespace, name, storage_class, request, access_modes, volume_mode, selector,
	attributes_class, owner_kind, owner_name, generated, source, line, batch_id)
SELECT COALESCE((SELECT max(id) FROM temp.pvc WHERE id < 0), ?5) + row_number() OVER (ORDER BY ord, name), ?2, name,
	storage_class, request, access_modes, volume_mode, selector, attributes_class, owner_kind, owner_name, 1,
	source, line, batch_id
FROM want WHERE NOT EXISTS (SELECT 1 FROM temp.pvc c WHERE c.namespace = ?2 AND c.name = want.name)
