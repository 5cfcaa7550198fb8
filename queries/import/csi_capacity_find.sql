-- kplan import (importers/store_storage.c): the CSIStorageCapacity of this
-- namespace and name, if any, and where it was read.
SELECT id, batch_id, source, line FROM csi_storage_capacity WHERE namespace = ?1 AND name = ?2
