-- kplan import (importers/store_dra.c): the ResourceClaimTemplate of this
-- namespace and name, if any, and where it was read.
SELECT id, batch_id, source, line FROM resource_claim_template WHERE namespace = ?1 AND name = ?2
