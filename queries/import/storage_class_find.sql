-- kplan import (importers/store_storage.c): the StorageClass of this name,
-- if any, and where it was read.
SELECT id, batch_id, source, line FROM storage_class WHERE name = ?1
