-- kplan import (importers/store_storage.c): one label of a PV.
INSERT OR REPLACE INTO pv_label(pv_id, key, value) VALUES(?1, ?2, ?3)
