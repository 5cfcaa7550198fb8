-- kplan explain (planner/explain_replay.c): placement.sql on a database made
-- before what-if (no run_node).
SELECT pl.action, n.name, f.name, pl.reason FROM placement pl LEFT JOIN node n ON n.id = pl.node_id
LEFT JOIN node f ON f.id = pl.from_node_id WHERE pl.run_id = ?1 AND pl.pod_id = ?2
