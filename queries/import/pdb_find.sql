-- kplan import (importers/store_objects.c): the PodDisruptionBudget of this
-- namespace and name, if any, and where it was read.
SELECT id, batch_id, source, line FROM pdb WHERE namespace = ?1 AND name = ?2
