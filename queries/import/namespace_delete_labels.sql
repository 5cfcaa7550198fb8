-- kplan import (importers/store_objects.c): a replaced Namespace's labels go.
DELETE FROM namespace_label WHERE namespace_id = ?1
