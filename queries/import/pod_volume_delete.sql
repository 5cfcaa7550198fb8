-- kplan import (importers/store_storage.c): a replaced pod's volumes.
DELETE FROM pod_volume WHERE pod_id = ?1
