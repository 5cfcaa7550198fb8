-- Anything for DynamicResources: a pod naming a claim, a slice, or a
-- DeviceClass (it may map an extended resource, §16.8).
SELECT EXISTS (SELECT 1 FROM pod_resource_claim) OR EXISTS (SELECT 1 FROM resource_slice)
    OR EXISTS (SELECT 1 FROM device_class);
