-- kplan import (importers/store_storage.c): a CSIDriver, new or replacing the
-- one of its name.
INSERT INTO csi_driver(name, attach_required, storage_capacity, lifecycle_modes, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
ON CONFLICT(name) DO UPDATE SET
    attach_required = excluded.attach_required, storage_capacity = excluded.storage_capacity,
    lifecycle_modes = excluded.lifecycle_modes, source = excluded.source, line = excluded.line,
    batch_id = excluded.batch_id
