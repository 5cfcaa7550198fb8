-- kplan import (importers/store_objects.c): the Service of this namespace
-- and name, if any, and where it was read.
SELECT id, batch_id, source, line FROM service WHERE namespace = ?1 AND name = ?2
