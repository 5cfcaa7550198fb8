-- kplan import (importers/store_objects.c): a replaced node's labels go.
DELETE FROM node_label WHERE node_id = ?1
