-- kplan import (importers/store_dra.c): the ResourceSlice of this name, if
-- any, and where it was read.
SELECT id, batch_id, source, line FROM resource_slice WHERE name = ?1
