-- kplan import (importers/store_objects.c): a new node.
INSERT INTO node(name, uid, unschedulable, created, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
