-- kplan import (importers/store_dra.c): the counters a replaced
-- ResourceSlice's devices consume.
DELETE FROM device_counter WHERE device_id IN (SELECT id FROM slice_device WHERE slice_id = ?1)
