-- kplan import (importers/store_objects.c): one label of a node.
INSERT OR REPLACE INTO node_label(node_id, key, value) VALUES(?1, ?2, ?3)
