-- kplan import (importers/store_objects.c): a replaced pod's labels go.
DELETE FROM pod_label WHERE pod_id = ?1
