-- kplan import (importers/store_storage.c): the CSIDriver of this name, if
-- any, and where it was read.
SELECT rowid, batch_id, source, line FROM csi_driver WHERE name = ?1
