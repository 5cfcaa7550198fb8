-- kplan import (importers/store_dra.c): the taints of a replaced
-- ResourceSlice's devices.
DELETE FROM device_taint WHERE device_id IN (SELECT id FROM slice_device WHERE slice_id = ?1)
