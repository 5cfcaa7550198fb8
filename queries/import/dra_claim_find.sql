-- kplan import (importers/store_dra.c): the ResourceClaim of this namespace
-- and name, if any (read or generated), and where it was read.
SELECT id, batch_id, source, line FROM resource_claim WHERE namespace = ?1 AND name = ?2
