-- kplan import (importers/store_gang.c): the scheduling group of a pod read.
INSERT INTO pod_scheduling_group(pod_id, pod_group, workload, replica_key) VALUES(?1, ?2, ?3, ?4)
