-- kplan import (importers/store_storage.c): one volume of a workload's pod
-- template (an ephemeral volume's claim is named per generated pod).
INSERT OR REPLACE INTO workload_volume(workload_id, name, kind, claim, read_only, source, driver, volume_handle,
                                       claim_spec, monitors)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
