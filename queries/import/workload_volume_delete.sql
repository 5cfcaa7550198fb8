-- kplan import (importers/store_storage.c): a replaced workload's template
-- volumes.
DELETE FROM workload_volume WHERE workload_id = ?1
