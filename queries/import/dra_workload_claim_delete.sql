-- kplan import (importers/store_dra.c): a replaced workload template's
-- resource claims.
DELETE FROM workload_resource_claim WHERE workload_id = ?1
