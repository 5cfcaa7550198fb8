-- kplan import (importers/store_storage.c): a PersistentVolumeClaim read
-- from the input, new or replacing the one of its namespace and name (a
-- generated one too: it is then no longer generated).
INSERT INTO pvc(namespace, name, storage_class, request, access_modes, volume_mode, volume_name, phase,
                selector, selected_node, deleting, owner_kind, owner_name, generated, source, line, batch_id,
                bind_completed, attributes_class)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0, ?14, ?15, ?16, ?17, ?18)
ON CONFLICT(namespace, name) DO UPDATE SET
    storage_class = excluded.storage_class, request = excluded.request,
    access_modes = excluded.access_modes, volume_mode = excluded.volume_mode,
    volume_name = excluded.volume_name, phase = excluded.phase, selector = excluded.selector,
    selected_node = excluded.selected_node, deleting = excluded.deleting,
    owner_kind = excluded.owner_kind, owner_name = excluded.owner_name, generated = 0,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id,
    bind_completed = excluded.bind_completed, attributes_class = excluded.attributes_class
