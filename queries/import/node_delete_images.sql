-- kplan import (importers/store_objects.c): a replaced node's images go.
DELETE FROM node_image WHERE node_id = ?1
