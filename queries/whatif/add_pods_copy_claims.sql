-- what-if add-pods (planner/whatif_add_pods.c): the claims the controllers
-- would make for copy ?1 (named ?2, in namespace ?4) of the spec of option
-- ?3, as the importer generates them (queries/import/pvc_want.sql), unless a
-- claim of that name exists: an ephemeral volume's <copy>-<volume> (owner
-- the copy: the Pod), a StatefulSet's <template>-<copy> (owner the
-- StatefulSet ?5; the copy is no replica of it, but gets a claim of its
-- own as a replica would).  generated = 1, never bind-completed, the copy's
-- source and batch; ids negative, ascending from ?6 (as --scale's claims)
WITH want(ord, name, spec, owner_kind, owner_name) AS (
	SELECT ord, CASE WHEN template THEN name || '-' || ?2 ELSE ?2 || '-' || name END, claim_spec,
		CASE WHEN template THEN 'StatefulSet' ELSE 'Pod' END, CASE WHEN template THEN ?5 ELSE ?2 END
	FROM temp.kp_whatif_spec_volume
	WHERE seq = ?3 AND claim_spec IS NOT NULL AND (template OR kind = 'ephemeral'))
INSERT OR IGNORE INTO temp.pvc(id, namespace, name, storage_class, request, access_modes, volume_mode, selector,
	attributes_class, owner_kind, owner_name, generated, source, line, batch_id)
SELECT COALESCE((SELECT max(id) FROM temp.pvc WHERE id < 0), ?6) + row_number() OVER (ORDER BY w.ord), ?4, w.name,
	json_extract(w.spec, '$.storage_class'), json_extract(w.spec, '$.request'),
	json_extract(w.spec, '$.access_modes'), json_extract(w.spec, '$.volume_mode'),
	json_extract(w.spec, '$.selector'), json_extract(w.spec, '$.attributes_class'), w.owner_kind, w.owner_name, 1,
	p.source, p.line, p.batch_id
FROM want w JOIN temp.pod p ON p.id = ?1
WHERE NOT EXISTS (SELECT 1 FROM temp.pvc c WHERE c.namespace = ?4 AND c.name = w.name)
