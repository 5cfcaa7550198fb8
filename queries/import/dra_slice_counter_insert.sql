-- kplan import (importers/store_dra.c): one counter of a ResourceSlice's
-- sharedCounters.
INSERT INTO slice_counter(slice_id, counter_set, counter, value, quantity) VALUES(?1, ?2, ?3, ?4, ?5)
