-- kplan import (importers/store_gang.c): the PodGroup of this namespace and
-- name, if any, and where it was read.
SELECT id, batch_id, source, line FROM pod_group WHERE namespace = ?1 AND name = ?2
