-- kplan import (importers/store_storage.c): one volume of a pod read from
-- the input.
INSERT OR REPLACE INTO pod_volume(pod_id, name, kind, claim, read_only, source, driver, volume_handle, claim_spec,
                                  monitors)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
