-- kplan import (importers/store_storage.c): a PersistentVolume, new or
-- replacing the one of its name; returns its id (for its labels).
INSERT INTO pv(name, storage_class, capacity, access_modes, volume_mode, phase, claim_ns, claim_name,
               claim_uid, source, driver, volume_handle, node_affinity, file, line, batch_id, deleting,
               attributes_class)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
ON CONFLICT(name) DO UPDATE SET
    storage_class = excluded.storage_class, capacity = excluded.capacity,
    access_modes = excluded.access_modes, volume_mode = excluded.volume_mode, phase = excluded.phase,
    claim_ns = excluded.claim_ns, claim_name = excluded.claim_name, claim_uid = excluded.claim_uid,
    source = excluded.source, driver = excluded.driver, volume_handle = excluded.volume_handle,
    node_affinity = excluded.node_affinity, file = excluded.file, line = excluded.line,
    batch_id = excluded.batch_id, deleting = excluded.deleting, attributes_class = excluded.attributes_class
RETURNING id
