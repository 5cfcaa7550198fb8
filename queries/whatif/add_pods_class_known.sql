-- what-if add-pods (planner/whatif_add_pods.c): 1 when the scheduling class
-- ?1 exists (in the TEMP copy when there is one)
SELECT count(*) FROM pod_class WHERE id = ?1
