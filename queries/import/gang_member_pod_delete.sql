-- kplan import (importers/store_gang.c): a pod's scheduling group, before
-- its pod is written again.
DELETE FROM pod_scheduling_group WHERE pod_id = ?1
