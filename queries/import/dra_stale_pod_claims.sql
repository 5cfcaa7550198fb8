-- kplan import (importers/store_expand.c): the resource claims of workload
-- ?1's generated pods that this expansion did not keep (temp.kp_keep).
DELETE FROM pod_resource_claim WHERE pod_id IN (SELECT id FROM pod WHERE workload_id = ?1
AND id NOT IN (SELECT id FROM temp.kp_keep))
