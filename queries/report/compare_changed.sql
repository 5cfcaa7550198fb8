-- kplan report --compare, section changed_pods: the pods whose action or node
-- differs between run A (?1) and run B (?2).
WITH u AS (SELECT pod_id FROM placement WHERE run_id IN (?1, ?2) GROUP BY pod_id)
SELECT p.namespace, COALESCE(p.name, '#' || u.pod_id), a.action, na.name, b.action, nb.name
FROM u LEFT JOIN pod p ON p.id = u.pod_id
LEFT JOIN placement a ON a.run_id = ?1 AND a.pod_id = u.pod_id LEFT JOIN node na ON na.id = a.node_id
LEFT JOIN placement b ON b.run_id = ?2 AND b.pod_id = u.pod_id LEFT JOIN node nb ON nb.id = b.node_id
WHERE a.action IS NOT b.action OR a.node_id IS NOT b.node_id ORDER BY 1, 2
