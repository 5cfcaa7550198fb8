-- kplan import (importers/store_objects.c): one label of a Namespace.
INSERT OR REPLACE INTO namespace_label(namespace_id, key, value) VALUES(?1, ?2, ?3)
