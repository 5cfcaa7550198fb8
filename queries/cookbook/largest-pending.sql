-- largest-pending.sql — the biggest pending pods (no spec.nodeName at import) and their fate.
--
-- Answers: which pending pods ask for the most cpu and memory, and did the latest plan
--          place them?
-- Run:     kplan query cluster.db - < queries/cookbook/largest-pending.sql
--          (LIMIT 10: change it at the end.)
-- Columns: namespace, pod, cpu_m, memory, gpus (nvidia.com/gpu), action, node
SELECT p.namespace, p.name AS pod,
       COALESCE((SELECT value FROM class_request q WHERE q.class_id = p.class_id AND q.resource = 'cpu'), 0) AS cpu_m,
       COALESCE((SELECT value FROM class_request q WHERE q.class_id = p.class_id AND q.resource = 'memory'), 0) AS memory,
       COALESCE((SELECT value FROM class_request q WHERE q.class_id = p.class_id AND q.resource = 'nvidia.com/gpu'), 0) AS gpus,
       pl.action, n.name AS node
FROM pod p
LEFT JOIN placement pl ON pl.pod_id = p.id AND pl.run_id = (SELECT max(id) FROM run)
LEFT JOIN node n ON n.id = pl.node_id
WHERE p.node_name IS NULL
ORDER BY cpu_m DESC, memory DESC, p.namespace, p.name
LIMIT 10;
