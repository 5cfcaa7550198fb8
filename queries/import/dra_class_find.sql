-- kplan import (importers/store_dra.c): the DeviceClass of this name, if
-- any, and where it was read.
SELECT id, batch_id, source, line FROM device_class WHERE name = ?1
