-- kplan import (importers/store_objects.c): a node read again keeps its id
-- (?1); its child rows are rewritten.
UPDATE node SET uid = ?2, unschedulable = ?3, created = ?4, source = ?5, line = ?6,
       batch_id = ?7
WHERE id = ?1
