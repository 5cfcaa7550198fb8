-- kplan import (importers/store_dra.c): a DeviceClass, new or replacing the
-- one of its name; returns its id (for its selectors).
INSERT INTO device_class(name, extended_resource_name, config, api_version, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
ON CONFLICT(name) DO UPDATE SET
    extended_resource_name = excluded.extended_resource_name, config = excluded.config,
    api_version = excluded.api_version, source = excluded.source, line = excluded.line,
    batch_id = excluded.batch_id
RETURNING id
