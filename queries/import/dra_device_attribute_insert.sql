-- kplan import (importers/store_dra.c): one attribute of a device.
INSERT INTO device_attribute(device_id, domain, name, type, value) VALUES(?1, ?2, ?3, ?4, ?5)
