-- kplan import (importers/store_storage.c): a CSINode's rows for this node,
-- if any, and where it was read.
SELECT rowid, batch_id, source, line FROM csi_node WHERE node_name = ?1 LIMIT 1
