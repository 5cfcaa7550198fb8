-- kplan import (importers/store_dra.c): a replaced ResourceClaim's
-- allocation results.
DELETE FROM resource_claim_result WHERE claim_id = ?1
