-- kplan report, section devices_unallocated (after dra_cte.sql): the claims
-- of the run's unschedulable pods that stay unallocated, by pod and the
-- pod's claim name, with the pod's reason (placement.reason).
SELECT pod, pod_claim, claim, claim_from, status, reason FROM unalloc ORDER BY pod, pod_claim
