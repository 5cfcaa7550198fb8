-- kplan import (importers/store_dra.c, when the batch finishes): the claims
-- the resourceclaim controller would make for pods' template claims.
-- First a template claim whose pod's status named no claim takes an
-- imported claim owned by the pod with its claim name (findPodResourceClaim;
-- the row stays 'owned' until its pod is read again), else keeps its
-- generated name; then temp.kp_want_claim: one claim per 'generated' row
-- whose template exists, for pods not done (Succeeded, Failed); generated
-- claims nobody wants any more go; the others take their template's spec
-- again.
UPDATE pod_resource_claim SET claim_from = 'owned', claim =
    (SELECT min(rc.name) FROM resource_claim rc JOIN pod p ON p.id = pod_resource_claim.pod_id
     WHERE rc.generated = 0 AND rc.namespace = p.namespace AND rc.owner_kind = 'Pod' AND rc.owner_name = p.name
       AND rc.pod_claim = pod_resource_claim.name)
WHERE claim_from = 'generated' AND EXISTS
    (SELECT 1 FROM resource_claim rc JOIN pod p ON p.id = pod_resource_claim.pod_id
     WHERE rc.generated = 0 AND rc.namespace = p.namespace AND rc.owner_kind = 'Pod' AND rc.owner_name = p.name
       AND rc.pod_claim = pod_resource_claim.name);
CREATE TEMP TABLE IF NOT EXISTS kp_want_claim(
  namespace TEXT, name TEXT, spec_id INTEGER, template TEXT, pod_claim TEXT, owner_name TEXT, api_version TEXT,
  source TEXT, line INTEGER, PRIMARY KEY(namespace, name));
DELETE FROM temp.kp_want_claim;
INSERT OR IGNORE INTO temp.kp_want_claim
SELECT p.namespace, c.claim, t.spec_id, t.name, c.name, p.name, t.api_version, p.source, p.line
FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id
JOIN resource_claim_template t ON t.namespace = p.namespace AND t.name = c.template
WHERE c.claim_from = 'generated' AND p.phase NOT IN ('Succeeded', 'Failed')
ORDER BY p.id, c.seq;
DELETE FROM resource_claim WHERE generated = 1 AND NOT EXISTS
  (SELECT 1 FROM temp.kp_want_claim k WHERE k.namespace = resource_claim.namespace AND k.name = resource_claim.name);
UPDATE resource_claim SET spec_id = k.spec_id, template = k.template, pod_claim = k.pod_claim,
       owner_kind = 'Pod', owner_name = k.owner_name, api_version = k.api_version, source = k.source, line = k.line
FROM temp.kp_want_claim k WHERE resource_claim.generated = 1 AND k.namespace = resource_claim.namespace
  AND k.name = resource_claim.name;
