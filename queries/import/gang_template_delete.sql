-- kplan import (importers/store_gang.c): a Workload's templates, before
-- they are written again.
DELETE FROM sched_workload_template WHERE workload_id = ?1
