-- kplan report, section namespaces: per namespace, the run's pods by action,
-- and the cpu and memory requests placed (kept, bound or moved onto a node)
-- and unplaced (evicted or unschedulable).  ?1 the run.
SELECT p.namespace, count(*), sum(pl.action = 'keep'), sum(pl.action = 'bind'), sum(pl.action = 'move'),
 sum(pl.action = 'evict'), sum(pl.action = 'unschedulable'),
 COALESCE(sum(CASE WHEN pl.node_id IS NOT NULL AND pl.action IN ('keep', 'bind', 'move') THEN c.value END), 0),
 COALESCE(sum(CASE WHEN pl.node_id IS NOT NULL AND pl.action IN ('keep', 'bind', 'move') THEN m.value END), 0),
 COALESCE(sum(CASE WHEN pl.action IN ('evict', 'unschedulable') THEN c.value END), 0),
 COALESCE(sum(CASE WHEN pl.action IN ('evict', 'unschedulable') THEN m.value END), 0)
FROM placement pl JOIN pod p ON p.id = pl.pod_id
LEFT JOIN class_request c ON c.class_id = p.class_id AND c.resource = 'cpu'
LEFT JOIN class_request m ON m.class_id = p.class_id AND m.resource = 'memory'
WHERE pl.run_id = ?1 GROUP BY p.namespace ORDER BY p.namespace
