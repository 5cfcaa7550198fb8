-- kplan import (importers/store_expand.c): a generated pod (?1, named ?2)
-- gets the volumes of its workload's (?3) template; an ephemeral volume's
-- claim is <pod>-<volume>, as the ephemeral volume controller names it.
INSERT OR REPLACE INTO pod_volume(pod_id, name, kind, claim, read_only, source, driver, volume_handle, claim_spec,
                                  monitors)
SELECT ?1, name, kind, CASE kind WHEN 'ephemeral' THEN ?2 || '-' || name ELSE claim END,
       read_only, source, driver, volume_handle, claim_spec, monitors
FROM workload_volume WHERE workload_id = ?3
