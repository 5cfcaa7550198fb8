-- kplan report, section devices (key/value, after dra_cte.sql): what the
-- three devices tables hold, counted from the same rows.  device_rows, pools,
-- incomplete_pools: rows of devices_nodes, their (driver, pool) pairs, those
-- not complete; devices, in_use_before, in_use_run, in_use, free: the sums
-- of its columns; claims_allocated_before: resource_claim rows allocated in
-- the input; results_outside_slices: their results (admin access left out)
-- naming no device of a pool's newest generation (held by nothing);
-- allocations, allocations_admin: rows of devices_allocations, those with
-- admin access; claims_allocated_by_run, pods_allocating: their claims and
-- pods; unallocated_claims, unallocated_pods: rows of devices_unallocated
-- and their pods.
SELECT (SELECT count(*) FROM devrows) AS device_rows,
       (SELECT count(*) FROM (SELECT DISTINCT driver, pool FROM devrows)) AS pools,
       (SELECT count(*) FROM (SELECT DISTINCT driver, pool FROM devrows WHERE pool_status <> 'complete')) AS incomplete_pools,
       (SELECT COALESCE(sum(devices), 0) FROM devrows) AS devices,
       (SELECT COALESCE(sum(in_use_before), 0) FROM devrows) AS in_use_before,
       (SELECT COALESCE(sum(in_use_run), 0) FROM devrows) AS in_use_run,
       (SELECT COALESCE(sum(in_use), 0) FROM devrows) AS in_use,
       (SELECT COALESCE(sum(free), 0) FROM devrows) AS free,
       (SELECT count(*) FROM resource_claim WHERE allocated) AS claims_allocated_before,
       (SELECT count(*) FROM used_before u
        WHERE NOT EXISTS (SELECT 1 FROM dev v WHERE v.driver = u.driver AND v.pool = u.pool AND v.device = u.device))
         AS results_outside_slices,
       (SELECT count(*) FROM alloc) AS allocations,
       (SELECT count(*) FROM alloc WHERE admin_access) AS allocations_admin,
       (SELECT count(DISTINCT claim_id) FROM alloc) AS claims_allocated_by_run,
       (SELECT count(DISTINCT pod_id) FROM alloc) AS pods_allocating,
       (SELECT count(*) FROM unalloc) AS unallocated_claims,
       (SELECT count(DISTINCT pod_id) FROM unalloc) AS unallocated_pods
