-- kplan import (importers/store_expand.c): the live pods workload ?2 (kind
-- ?3) of namespace ?1 owns directly, read from the input.
SELECT count(*) FROM pod WHERE namespace = ?1 AND owner_kind = ?3 AND owner_name = ?2
AND workload_id IS NULL AND phase NOT IN ('Succeeded','Failed')
