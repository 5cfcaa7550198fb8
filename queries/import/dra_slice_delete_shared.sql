-- kplan import (importers/store_dra.c): a replaced ResourceSlice's shared
-- counters.
DELETE FROM slice_counter WHERE slice_id = ?1
