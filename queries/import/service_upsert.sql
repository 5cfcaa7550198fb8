-- kplan import (importers/store_objects.c): a Service, new or replacing the
-- one of its namespace and name; its selector as requirements (JSON).
INSERT INTO service(namespace, name, selector, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6)
ON CONFLICT(namespace, name) DO UPDATE SET
    selector = excluded.selector, source = excluded.source, line = excluded.line,
    batch_id = excluded.batch_id
