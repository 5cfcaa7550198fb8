-- kplan import (importers/store_objects.c): a re-imported node's declared features go.
DELETE FROM node_declared_feature WHERE node_id = ?1
