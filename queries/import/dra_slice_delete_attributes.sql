-- kplan import (importers/store_dra.c): the attributes of a replaced
-- ResourceSlice's devices.
DELETE FROM device_attribute WHERE device_id IN (SELECT id FROM slice_device WHERE slice_id = ?1)
