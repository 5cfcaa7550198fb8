-- kplan import (importers/store_dra.c): a replaced ResourceClaim's consumed
-- capacity.
DELETE FROM resource_claim_consumed WHERE claim_id = ?1
