-- kplan import (importers/store_storage.c): the PersistentVolumeClaim of
-- this namespace and name, if any (read or generated), and where it was read.
SELECT id, batch_id, source, line FROM pvc WHERE namespace = ?1 AND name = ?2
