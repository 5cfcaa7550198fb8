-- kplan import (importers/store_dra.c): a replaced pod's resource claims.
DELETE FROM pod_resource_claim WHERE pod_id = ?1
