-- kplan explain (planner/explain_replay.c): run ?1's placement row for pod
-- ?2: action, node (a node the run's what-if scenario added is in run_node),
-- the node it left, kube's message.  A database made before what-if has no
-- run_node: placement_before_whatif.sql.
SELECT pl.action, COALESCE(n.name, rn.name), f.name, pl.reason FROM placement pl
LEFT JOIN node n ON n.id = pl.node_id LEFT JOIN run_node rn ON pl.node_id < 0 AND rn.run_id = pl.run_id
AND rn.node_id = pl.node_id AND rn.change = 'added' LEFT JOIN node f ON f.id = pl.from_node_id
WHERE pl.run_id = ?1 AND pl.pod_id = ?2
