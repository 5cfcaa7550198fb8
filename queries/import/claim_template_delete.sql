-- kplan import (importers/store_storage.c): a replaced StatefulSet's
-- volumeClaimTemplates.
DELETE FROM workload_claim_template WHERE workload_id = ?1
