-- kplan import (importers/store_dra.c): the wanted claims
-- (temp.kp_want_claim, dra_claims_want.sql) that do not exist yet,
-- generated in batch ?1.
INSERT INTO resource_claim(namespace, name, spec_id, generated, template, pod_claim, owner_kind, owner_name,
                           api_version, source, line, batch_id)
SELECT namespace, name, spec_id, 1, template, pod_claim, 'Pod', owner_name, api_version, source, line, ?1
FROM temp.kp_want_claim k
WHERE NOT EXISTS (SELECT 1 FROM resource_claim rc WHERE rc.namespace = k.namespace AND rc.name = k.name)
ORDER BY rowid
