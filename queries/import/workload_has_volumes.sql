-- kplan import (importers/store_expand.c): 1 when workload ?4's template has
-- volumes or volumeClaimTemplates (its generated pods get pod_volume rows),
-- else 0: a workload without them skips three statements per generated pod.
SELECT EXISTS(SELECT 1 FROM workload_volume WHERE workload_id = ?4)
    OR EXISTS(SELECT 1 FROM workload_claim_template WHERE workload_id = ?4)
