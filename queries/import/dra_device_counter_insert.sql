-- kplan import (importers/store_dra.c): one counter a device consumes.
INSERT INTO device_counter(device_id, counter_set, counter, value, quantity) VALUES(?1, ?2, ?3, ?4, ?5)
