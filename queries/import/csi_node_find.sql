-- kplan import (importers/store_storage.c): the CSINode of this node, if
-- one was read (csi_node_info: also one without drivers), and where.
SELECT rowid, batch_id, source, line FROM csi_node_info WHERE node_name = ?1
