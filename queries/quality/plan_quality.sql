-- kplan plan quality (planner/quality.c): one plan_quality row a pool of run
-- ?1, from the working tables of setup.sql: nodes used against the largest
-- lower bound (requests, large pods, anti-affinity, one pod) and the gap.
-- Resources in reading order: cpu, memory, then by name.  docs/planning.md, "Plan quality".
INSERT INTO plan_quality(run_id, pool, nodes, nodes_used, pods, bound, bound_by, requests_bound,
  large_pods_bound, anti_affinity_bound, gap_pct)
-- capacity: allocatable less the per-node pods, or what the app pods take when more
WITH cap AS MATERIALIZED (
  SELECT pool, resource, node_id, max(alloc - overhead, app, 0) AS c,
         SUM(app) OVER (PARTITION BY pool, resource) AS total FROM temp.kp_q_nr),
-- largest capacities first: the nodes counted before the running sum reaches the total
by_requests AS (
  SELECT pool, resource, SUM(upto - c < total) AS n FROM (
    SELECT pool, resource, total, c, SUM(c) OVER (PARTITION BY pool, resource ORDER BY c DESC, node_id
                                                 ROWS UNBOUNDED PRECEDING) AS upto FROM cap WHERE total > 0)
  GROUP BY 1, 2),
-- (a request above half of cmax >= 0 is positive: kp_q_areq has them all)
by_large AS (
  SELECT a.pool, a.resource, SUM(a.n) AS n
  FROM temp.kp_q_areq a
  JOIN (SELECT pool, resource, max(c) AS cmax FROM cap GROUP BY 1, 2) b ON b.pool = a.pool AND b.resource = a.resource
  WHERE a.value > b.cmax - a.value GROUP BY 1, 2),
-- required anti-affinity terms that select pods of their own class (the
-- terms first: few, where the app classes are many)
aa_term AS MATERIALIZED (
  SELECT t.class_id, t.seq, t.selector FROM class_pod_affinity t CROSS JOIN pod_class c ON c.id = t.class_id
  WHERE t.anti = 1 AND t.required = 1 AND t.selector IS NOT NULL
    AND t.match_label_keys = '[]' AND t.mismatch_label_keys = '[]'
    AND ((t.namespaces = '[]' AND t.ns_selector IS NULL) OR t.ns_selector = '[]'
         OR EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(t.namespaces) THEN t.namespaces ELSE '[]' END) j
                    WHERE j.value = c.namespace))
    AND t.class_id IN (SELECT class_id FROM temp.kp_q_app)),
aa_group AS (
  SELECT np.pool, t.class_id, t.seq, count(DISTINCT pl.node_id) AS n, min(p.id) AS first_pod
  FROM aa_term t JOIN pod p ON p.class_id = t.class_id
  JOIN placement pl ON pl.run_id = ?1 AND pl.pod_id = p.id AND pl.action IN ('keep', 'bind', 'move')
  JOIN temp.kp_q_pool np ON np.node_id = pl.node_id
  WHERE NOT (COALESCE(p.owner_kind IN ('DaemonSet', 'Node'), 0) OR p.daemon_node IS NOT NULL)
    AND kplan_selector_match(t.selector, (SELECT json_group_object(key, value) FROM pod_label WHERE pod_id = p.id))
  GROUP BY 1, 2, 3),
used AS (SELECT pool, SUM(app > 0) AS used, SUM(app) AS pods FROM temp.kp_q_nr WHERE resource = 'pods' GROUP BY pool),
cand AS (
  SELECT pool, n, 1 AS k, resource <> 'cpu' AS o1, resource <> 'memory' AS o2, resource AS o3,
         'requests:' || resource AS label FROM by_requests
  UNION ALL SELECT pool, n, 2, resource <> 'cpu', resource <> 'memory', resource, 'large-pods:' || resource FROM by_large
  UNION ALL SELECT g.pool, g.n, 3, 0, 0, '',
    'anti-affinity:' || p.namespace || '/' || COALESCE(w.name, p.owner_name, p.name)
    FROM aa_group g JOIN pod p ON p.id = g.first_pod LEFT JOIN workload w ON w.id = p.workload_id
  UNION ALL SELECT pool, 1, 4, 0, 0, '', 'one-pod' FROM used WHERE pods > 0),
best AS (
  SELECT pool, n, label, row_number() OVER (PARTITION BY pool ORDER BY n DESC, k, o1, o2, o3, label) AS rk FROM cand)
SELECT ?1, p.pool, p.nodes, COALESCE(u.used, 0), COALESCE(u.pods, 0), COALESCE(b.n, 0),
  CASE WHEN b.n > 0 THEN b.label END,
  COALESCE((SELECT max(n) FROM by_requests r WHERE r.pool = p.pool), 0),
  COALESCE((SELECT max(n) FROM by_large r WHERE r.pool = p.pool), 0),
  COALESCE((SELECT max(n) FROM aa_group r WHERE r.pool = p.pool), 0),
  CASE WHEN b.n > 0 THEN round(100.0 * (COALESCE(u.used, 0) - b.n) / b.n, 1) END
FROM (SELECT pool, count(*) AS nodes FROM temp.kp_q_pool GROUP BY pool) p
LEFT JOIN used u ON u.pool = p.pool
LEFT JOIN best b ON b.pool = p.pool AND b.rk = 1
ORDER BY p.pool
