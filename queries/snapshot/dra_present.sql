-- Anything for DynamicResources: a pod naming a claim, or a slice.
SELECT EXISTS (SELECT 1 FROM pod_resource_claim) OR EXISTS (SELECT 1 FROM resource_slice);
