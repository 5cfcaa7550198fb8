-- kplan capacity --pod/--workload: every node, its pool (the value of the
-- pool label ?1, '(none)' without it), by id (planner/capacity_fit.c)
SELECT n.id, n.name, COALESCE(l.value, '(none)') FROM node n
LEFT JOIN node_label l ON l.node_id = n.id AND l.key = ?1 ORDER BY n.id
