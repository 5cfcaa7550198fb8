-- kplan import (importers/store_objects.c): a replaced node's resources go.
DELETE FROM node_resource WHERE node_id = ?1
