-- kplan import (importers/store_storage.c): the PersistentVolume of this
-- name, if any, and where it was read (pv.source is its volume source).
SELECT id, batch_id, file, line FROM pv WHERE name = ?1
