-- kplan import (importers/store_expand.c): a generated StatefulSet pod (?1,
-- named ?2) gets one PVC volume per volumeClaimTemplate of its set (?3),
-- claim <template>-<pod>, replacing a template volume of the same name as
-- the StatefulSet controller does (updateStorage).
INSERT OR REPLACE INTO pod_volume(pod_id, name, kind, claim)
SELECT ?1, name, 'pvc', name || '-' || ?2 FROM workload_claim_template WHERE workload_id = ?3
