-- kplan import (importers/store_dra.c): a replaced DeviceClass's selectors.
DELETE FROM device_class_selector WHERE class_id = ?1
