-- kplan import (importers/store_storage.c): a StorageClass, new or replacing
-- the one of its name.
INSERT INTO storage_class(name, provisioner, binding_mode, is_default, allowed_topologies, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT(name) DO UPDATE SET
    provisioner = excluded.provisioner, binding_mode = excluded.binding_mode,
    is_default = excluded.is_default, allowed_topologies = excluded.allowed_topologies,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id
