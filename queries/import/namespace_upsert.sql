-- kplan import (importers/store_objects.c): a Namespace, new or replacing the
-- one of its name; returns its id (for its labels).
INSERT INTO namespace(name, source, line, batch_id) VALUES(?1, ?2, ?3, ?4)
ON CONFLICT(name) DO UPDATE SET source = excluded.source, line = excluded.line,
    batch_id = excluded.batch_id
RETURNING id
