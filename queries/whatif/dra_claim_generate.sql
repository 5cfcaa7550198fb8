-- what-if --scale and add-pods (planner/whatif_dra.c): the claim the
-- resourceclaim controller makes for template ?6's entry ?4 of scenario pod
-- ?1 (named ?5) in namespace ?2, named ?3, as the importer generates it
-- (queries/import/dra_claims_want.sql, dra_claims_generate.sql): the
-- template's spec (shared, spec_id), owned by the pod, generated = 1, not
-- allocated; the pod's source and batch — unless a claim of that name
-- exists, or the template does not (the pod then names a claim that is not
-- there, as kube's pod would).  Ids negative, ascending from ?7 (never an
-- imported row's, as the scenario's pods)
INSERT INTO temp.resource_claim(id, namespace, name, spec_id, generated, template, pod_claim, owner_kind, owner_name,
	api_version, source, line, batch_id)
SELECT COALESCE((SELECT max(id) FROM temp.resource_claim WHERE id < 0), ?7) + 1, ?2, ?3, t.spec_id, 1, t.name, ?4,
	'Pod', ?5, t.api_version, p.source, p.line, p.batch_id
FROM resource_claim_template t JOIN temp.pod p ON p.id = ?1
WHERE t.namespace = ?2 AND t.name = ?6
	AND NOT EXISTS (SELECT 1 FROM temp.resource_claim c WHERE c.namespace = ?2 AND c.name = ?3)
