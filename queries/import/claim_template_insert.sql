-- kplan import (importers/store_storage.c): one volumeClaimTemplate of a
-- StatefulSet.
INSERT OR REPLACE INTO workload_claim_template(workload_id, name, storage_class, request, access_modes,
                                               volume_mode, selector, seq, attributes_class)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
