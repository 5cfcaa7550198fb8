-- kplan import (importers/store_objects.c, store_expand.c): the pod of this
-- namespace and name, if any, where it was read and the workload that
-- generated it (NULL: a pod read from the input).
SELECT id, batch_id, source, line, workload_id FROM pod WHERE namespace = ?1 AND name = ?2
