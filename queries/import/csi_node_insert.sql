-- kplan import (importers/store_storage.c): one driver of a CSINode.
INSERT OR REPLACE INTO csi_node(node_name, driver, allocatable, topology_keys, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
