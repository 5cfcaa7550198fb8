-- kplan plan (planner/plan_write.c): one pod's outcome (schema.sql,
-- "placement"); ?10 is the node it left (move, evict).
INSERT INTO placement(run_id, pod_id, seq, action, node_id, from_node_id, score,
                      feasible, attempts, reason)
VALUES(?1, ?2, ?3, ?4, ?5, ?10, ?6, ?7, ?8, ?9)
