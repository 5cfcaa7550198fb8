-- kplan import (importers/store_objects.c): the KubeSchedulerConfiguration
-- read from this source (FILE#DOC), if any.
SELECT id, batch_id, source, line FROM scheduler_config WHERE source = ?1
