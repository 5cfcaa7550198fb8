-- kplan import (importers/store_objects.c): the Namespace of this name, if
-- any, and where it was read.
SELECT id, batch_id, source, line FROM namespace WHERE name = ?1
