-- kplan import (importers/store_storage.c): a replaced PV's labels.
DELETE FROM pv_label WHERE pv_id = ?1
