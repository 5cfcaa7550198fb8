-- kplan plan (planner/plan.c): the pods that name ResourceClaims (DRA), in
-- id order, for the warning that DynamicResources is not modelled yet.  A
-- database imported before DRA was has no pod_resource_claim table: none.
SELECT DISTINCT pod_id FROM pod_resource_claim ORDER BY pod_id
