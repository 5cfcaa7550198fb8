-- kplan fix (planner/fix.c): one checked candidate fix (schema.sql, "fix").
INSERT INTO fix(run_id, pod_id, namespace, pod, rank, level, kind, detail, victims, checked, result_node, joint,
                joint_node)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 1, ?10, ?11, ?12)
