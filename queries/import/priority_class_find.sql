-- kplan import (importers/store_objects.c): the PriorityClass of this name,
-- if any, and where it was read.
SELECT id, batch_id, source, line FROM priority_class WHERE name = ?1
