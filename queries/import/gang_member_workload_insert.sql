-- kplan import (importers/store_gang.c): the scheduling group of a
-- controller's pod template (its generated pods take it: view pod_gang).
INSERT INTO workload_scheduling_group(workload_id, pod_group, workload, replica_key) VALUES(?1, ?2, ?3, ?4)
