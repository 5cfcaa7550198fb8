-- kplan report, section devices_allocations (after dra_cte.sql): the run's
-- dra_allocation rows in order: the pod whose placement allocated the
-- device, the claim (in the pod's namespace), its request, the device, the
-- pod's node.
SELECT a.seq, COALESCE(p.namespace || '/' || p.name, '#' || a.pod_id), a.claim, a.request, a.driver, a.pool, a.device,
       a.admin_access, COALESCE(n.name, '#' || a.node_id)
FROM alloc a LEFT JOIN pod p ON p.id = a.pod_id LEFT JOIN node n ON n.id = a.node_id
ORDER BY a.seq
