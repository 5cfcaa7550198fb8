-- kplan import (importers/store_objects.c): one label of a pod.
INSERT OR REPLACE INTO pod_label(pod_id, key, value) VALUES(?1, ?2, ?3)
