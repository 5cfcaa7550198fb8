-- The DRA tables the loader reads all exist (import made them).
SELECT count(*) = 6 FROM sqlite_master
WHERE type = 'table' AND name IN ('device_class', 'resource_slice', 'slice_device', 'resource_claim', 'claim_request', 'pod_resource_claim');
