-- kplan import (importers/store_class.c): one nodeSelector pair of a pod class.
INSERT OR REPLACE INTO class_node_selector(class_id, key, value) VALUES(?1, ?2, ?3)
