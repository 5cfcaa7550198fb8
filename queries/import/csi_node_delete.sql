-- kplan import (importers/store_storage.c): a replaced CSINode's drivers
-- (its csi_node_info row is replaced by csi_node_info_upsert.sql).
DELETE FROM csi_node WHERE node_name = ?1
