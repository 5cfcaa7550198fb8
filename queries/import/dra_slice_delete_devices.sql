-- kplan import (importers/store_dra.c): a replaced ResourceSlice's devices
-- (after their attributes, capacity, counters and taints).
DELETE FROM slice_device WHERE slice_id = ?1
