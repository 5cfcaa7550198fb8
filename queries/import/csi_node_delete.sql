-- kplan import (importers/store_storage.c): a replaced CSINode's drivers.
DELETE FROM csi_node WHERE node_name = ?1
