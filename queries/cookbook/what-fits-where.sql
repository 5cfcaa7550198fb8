-- what-fits-where.sql — free capacity of every node after the latest plan against one pod's requests.
--
-- Answers: where would this pod fit by resources alone, and what else (cordon, taints,
--          node selector) keeps it off the nodes where it would fit?  Required node affinity
--          terms, pod affinity and spreading are not checked here: `kplan explain` has those.
-- Run:     kplan query cluster.db - < queries/cookbook/what-fits-where.sql
--          Name the pod in the `params` line (namespace, pod).
-- Columns: node, free_cpu_m, free_memory, short (requested resources that do not fit, with
--          how much is missing), fits_resources (1/0), blocked_by (cordoned, untolerated
--          NoSchedule/NoExecute taints, nodeSelector mismatches), fits (resources and not blocked)
WITH params(namespace, pod) AS (SELECT 'shop', 'search-reindex'),
target AS (SELECT p.id, p.class_id FROM pod p, params WHERE p.namespace = params.namespace AND p.name = params.pod),
req AS (SELECT q.resource, q.value FROM class_request q JOIN target t ON q.class_id = t.class_id
        UNION ALL SELECT 'pods', 1),
r AS (SELECT max(id) AS id FROM run),
podcount AS (SELECT node_id, count(*) AS n FROM placement WHERE run_id = (SELECT id FROM r)
             AND action IN ('keep', 'bind', 'move') AND node_id IS NOT NULL GROUP BY node_id),
free AS (
  SELECT n.id AS node_id, req.resource, req.value AS want,
         COALESCE(nr.allocatable, 0) - CASE WHEN req.resource = 'pods' THEN COALESCE(pc.n, 0)
                                            ELSE COALESCE(u.requested_after, 0) END AS free
  FROM node n CROSS JOIN req
  LEFT JOIN node_resource nr ON nr.node_id = n.id AND nr.resource = req.resource
  LEFT JOIN node_usage u ON u.node = n.name AND u.resource = req.resource
  LEFT JOIN podcount pc ON pc.node_id = n.id),
blocked AS (
  SELECT n.id AS node_id,
         trim(CASE WHEN n.unschedulable THEN 'cordoned; ' ELSE '' END
           || COALESCE((SELECT group_concat('taint ' || t.key || '=' || t.value || ':' || t.effect, '; ')
                        FROM node_taint t
                        WHERE t.node_id = n.id AND t.effect IN ('NoSchedule', 'NoExecute')
                          AND NOT (t.key = 'node.kubernetes.io/unschedulable' AND n.unschedulable)
                          AND NOT EXISTS (SELECT 1 FROM class_toleration ct JOIN target ON ct.class_id = target.class_id
                                          WHERE kplan_tolerates(ct.key, ct.operator, ct.value, ct.effect,
                                                                t.key, t.value, t.effect))) || '; ', '')
           || COALESCE((SELECT group_concat('nodeSelector ' || s.key || '=' || s.value, '; ')
                        FROM class_node_selector s JOIN target ON s.class_id = target.class_id
                        WHERE NOT EXISTS (SELECT 1 FROM node_label l
                                          WHERE l.node_id = n.id AND l.key = s.key AND l.value = s.value)), ''),
           '; ') AS why
  FROM node n)
SELECT n.name AS node,
       (SELECT free FROM free WHERE free.node_id = n.id AND resource = 'cpu') AS free_cpu_m,
       (SELECT free FROM free WHERE free.node_id = n.id AND resource = 'memory') AS free_memory,
       (SELECT group_concat(resource || ' ' || (want - free) || ' short', ', ') FROM free
        WHERE free.node_id = n.id AND want > free) AS short,
       NOT EXISTS (SELECT 1 FROM free WHERE free.node_id = n.id AND want > free) AS fits_resources,
       NULLIF(b.why, '') AS blocked_by,
       NOT EXISTS (SELECT 1 FROM free WHERE free.node_id = n.id AND want > free) AND b.why = '' AS fits
FROM node n JOIN blocked b ON b.node_id = n.id
WHERE EXISTS (SELECT 1 FROM target)
ORDER BY fits DESC, fits_resources DESC, free_cpu_m DESC, n.name;
