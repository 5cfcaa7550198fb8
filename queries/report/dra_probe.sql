-- kplan report, devices sections: shown when the cluster has a ResourceSlice,
-- a ResourceClaim or a pod naming a claim.  Run after dra_tables.sql.
SELECT 1 WHERE EXISTS (SELECT 1 FROM resource_slice) OR EXISTS (SELECT 1 FROM resource_claim)
            OR EXISTS (SELECT 1 FROM pod_resource_claim)
