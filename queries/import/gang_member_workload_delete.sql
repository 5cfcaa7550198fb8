-- kplan import (importers/store_gang.c): a controller template's scheduling
-- group, before the controller is written again.
DELETE FROM workload_scheduling_group WHERE workload_id = ?1
