-- kplan import (importers/store_storage.c, when the batch finishes): the
-- claims the controllers would make (temp.kp_want_pvc) — a generic ephemeral
-- volume's <pod>-<volume> (owner Pod), a StatefulSet pod's
-- <template>-<pod> for each volumeClaimTemplate of its set (owner
-- StatefulSet; pods read from the input too) — then generated claims nobody
-- wants any more go, and the others take their template's spec again.
CREATE TEMP TABLE IF NOT EXISTS kp_want_pvc(
  namespace TEXT, name TEXT, storage_class TEXT, request INTEGER, access_modes TEXT, volume_mode TEXT,
  selector TEXT, owner_kind TEXT, owner_name TEXT, source TEXT, line INTEGER, attributes_class TEXT,
  PRIMARY KEY(namespace, name));
DELETE FROM temp.kp_want_pvc;
INSERT OR IGNORE INTO temp.kp_want_pvc
SELECT p.namespace, v.claim, json_extract(v.claim_spec, '$.storage_class'),
       json_extract(v.claim_spec, '$.request'), json_extract(v.claim_spec, '$.access_modes'),
       json_extract(v.claim_spec, '$.volume_mode'), json_extract(v.claim_spec, '$.selector'),
       'Pod', p.name, p.source, p.line, json_extract(v.claim_spec, '$.attributes_class')
FROM pod_volume v JOIN pod p ON p.id = v.pod_id
WHERE v.kind = 'ephemeral' AND v.claim_spec IS NOT NULL
ORDER BY p.id, v.name;
INSERT OR IGNORE INTO temp.kp_want_pvc
SELECT p.namespace, v.claim, t.storage_class, t.request, t.access_modes, t.volume_mode, t.selector,
       'StatefulSet', w.name, w.source, w.line, t.attributes_class
FROM pod_volume v JOIN pod p ON p.id = v.pod_id
JOIN workload w ON w.kind = 'StatefulSet' AND w.namespace = p.namespace AND w.name = p.owner_name
JOIN workload_claim_template t ON t.workload_id = w.id AND v.claim = t.name || '-' || p.name
WHERE v.kind = 'pvc' AND p.owner_kind = 'StatefulSet'
ORDER BY p.id, t.seq;
DELETE FROM pvc WHERE generated = 1 AND NOT EXISTS
  (SELECT 1 FROM temp.kp_want_pvc k WHERE k.namespace = pvc.namespace AND k.name = pvc.name);
UPDATE pvc SET storage_class = k.storage_class, request = k.request, access_modes = k.access_modes,
       volume_mode = k.volume_mode, selector = k.selector, owner_kind = k.owner_kind,
       owner_name = k.owner_name, source = k.source, line = k.line, attributes_class = k.attributes_class
FROM temp.kp_want_pvc k WHERE pvc.generated = 1 AND k.namespace = pvc.namespace AND k.name = pvc.name;
