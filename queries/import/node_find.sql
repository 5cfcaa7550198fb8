-- kplan import (importers/store_objects.c): the node of this name, if any,
-- and where it was read (a second one in the same batch is an error).
SELECT id, batch_id, source, line FROM node WHERE name = ?1
