-- kplan import (importers/store_objects.c): one name of an image a node holds.
INSERT OR IGNORE INTO node_image(node_id, seq, name, size_bytes) VALUES(?1, ?2, ?3, ?4)
