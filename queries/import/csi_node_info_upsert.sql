-- kplan import (importers/store_storage.c): a CSINode's own row (with or
-- without drivers), new or replacing the one of its node: the
-- migrated-plugins annotation ?2 ('' absent).
INSERT INTO csi_node_info(node_name, migrated_plugins, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5)
ON CONFLICT(node_name) DO UPDATE SET
    migrated_plugins = excluded.migrated_plugins, source = excluded.source, line = excluded.line,
    batch_id = excluded.batch_id
