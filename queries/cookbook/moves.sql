-- moves.sql — pods the latest plan moves from one node to another.
--
-- Answers: which running pods change node (a preemption victim whose controller's
--          replacement was placed elsewhere), from where to where, and because of whom?
-- Run:     kplan query cluster.db - < queries/cookbook/moves.sql
-- Columns: namespace, pod, from_node, to_node, preempted_by
SELECT p.namespace, p.name AS pod, f.name AS from_node, t.name AS to_node,
       (SELECT group_concat(pp.namespace || '/' || pp.name, ', ') FROM eviction e JOIN pod pp ON pp.id = e.preemptor_pod_id
        WHERE e.run_id = pl.run_id AND e.pod_id = pl.pod_id) AS preempted_by
FROM placement pl JOIN pod p ON p.id = pl.pod_id
LEFT JOIN node f ON f.id = pl.from_node_id LEFT JOIN node t ON t.id = pl.node_id
WHERE pl.run_id = (SELECT max(id) FROM run) AND pl.action = 'move'
ORDER BY p.namespace, p.name;
