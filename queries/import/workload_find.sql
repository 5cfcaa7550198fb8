-- kplan import (importers/store_objects.c): the workload of this kind,
-- namespace and name, if any, and where it was read.
SELECT id, batch_id, source, line FROM workload WHERE kind = ?1 AND namespace = ?2 AND name = ?3
