-- taints-nobody-tolerates.sql — node taints that no pod tolerates on purpose.
--
-- Answers: which taints keep every ordinary pod away (a forgotten cordon, a pool nobody
--          targets)?  For each taint: the pods (bound or pending) with a toleration for it,
--          counted with kplan_tolerates (docs/sql-cookbook.md, "SQL functions"), apart from the pods that
--          tolerate everything (`operator: Exists` without a key, as node agents do).
--          Only taints with no specific toleration are listed.
-- Run:     kplan query cluster.db - < queries/cookbook/taints-nobody-tolerates.sql
-- Columns: node, taint (key=value:effect), tolerate_everything_pods, pods_on_node
WITH tol AS (
  SELECT p.id AS pod_id, t.key, t.operator, t.value, t.effect,
         t.key = '' AND t.operator = 'Exists' AS wildcard
  FROM pod p JOIN class_toleration t ON t.class_id = p.class_id
  WHERE p.phase NOT IN ('Succeeded', 'Failed'))
SELECT n.name AS node, t.key || '=' || t.value || ':' || t.effect AS taint,
       (SELECT count(DISTINCT tol.pod_id) FROM tol WHERE tol.wildcard) AS tolerate_everything_pods,
       (SELECT count(*) FROM pod p WHERE p.node_name = n.name AND p.phase NOT IN ('Succeeded', 'Failed')) AS pods_on_node
FROM node_taint t JOIN node n ON n.id = t.node_id
WHERE NOT EXISTS (SELECT 1 FROM tol
                  WHERE NOT tol.wildcard
                    AND kplan_tolerates(tol.key, tol.operator, tol.value, tol.effect, t.key, t.value, t.effect))
ORDER BY n.name, t.seq;
