-- kplan import (importers/store_dra.c): a replaced ResourceClaim's
-- reservedFor.
DELETE FROM resource_claim_reserved WHERE claim_id = ?1
