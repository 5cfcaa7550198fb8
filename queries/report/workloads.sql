-- kplan report, section workloads: namespaces.sql per workload: the one a pod
-- was generated from, else its controller, else "(bare pods)".  ?1 the run.
SELECT CASE WHEN w.id IS NOT NULL THEN w.kind WHEN p.owner_kind IS NOT NULL THEN p.owner_kind ELSE '(none)' END AS k,
 p.namespace AS ns,
 CASE WHEN w.id IS NOT NULL THEN w.name WHEN p.owner_kind IS NOT NULL THEN COALESCE(p.owner_name, '') ELSE '(bare pods)' END AS nm,
 count(*), sum(pl.action = 'keep'), sum(pl.action = 'bind'), sum(pl.action = 'move'),
 sum(pl.action = 'evict'), sum(pl.action = 'unschedulable'),
 COALESCE(sum(CASE WHEN pl.node_id IS NOT NULL AND pl.action IN ('keep', 'bind', 'move') THEN c.value END), 0),
 COALESCE(sum(CASE WHEN pl.node_id IS NOT NULL AND pl.action IN ('keep', 'bind', 'move') THEN m.value END), 0),
 COALESCE(sum(CASE WHEN pl.action IN ('evict', 'unschedulable') THEN c.value END), 0),
 COALESCE(sum(CASE WHEN pl.action IN ('evict', 'unschedulable') THEN m.value END), 0)
FROM placement pl JOIN pod p ON p.id = pl.pod_id
LEFT JOIN class_request c ON c.class_id = p.class_id AND c.resource = 'cpu'
LEFT JOIN class_request m ON m.class_id = p.class_id AND m.resource = 'memory'
LEFT JOIN workload w ON w.id = p.workload_id
WHERE pl.run_id = ?1 GROUP BY k, ns, nm ORDER BY ns, k, nm
