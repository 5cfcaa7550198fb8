-- kplan import (importers/store_objects.c): one taint of a node, in spec order.
INSERT INTO node_taint(node_id, seq, key, value, effect) VALUES(?1, ?2, ?3, ?4, ?5)
