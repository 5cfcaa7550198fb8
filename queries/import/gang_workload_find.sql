-- kplan import (importers/store_gang.c): the Workload (scheduling.k8s.io)
-- of this namespace and name, if any, and where it was read.
SELECT id, batch_id, source, line FROM sched_workload WHERE namespace = ?1 AND name = ?2
