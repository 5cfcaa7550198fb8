-- kplan import (importers/store_objects.c): a replaced node's taints go.
DELETE FROM node_taint WHERE node_id = ?1
