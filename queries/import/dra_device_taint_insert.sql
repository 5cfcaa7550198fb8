-- kplan import (importers/store_dra.c): one taint of a device.
INSERT INTO device_taint(device_id, seq, key, value, effect, time_added) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
