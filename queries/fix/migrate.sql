-- kplan fix (planner/fix.c): the rows of a fix table made before rank, level,
-- joint and joint_node (renamed kp_fix_old) into the new table: one row a
-- pod, so rank 1; the level of add-node and evict rows follows from the kind,
-- a relax row's was not recorded (NULL).
INSERT INTO fix(run_id, pod_id, namespace, pod, rank, level, kind, detail, victims, checked, result_node)
SELECT run_id, pod_id, namespace, pod, 1,
       CASE kind WHEN 'add-node' THEN 'add-node' WHEN 'evict' THEN 'evict' END,
       kind, detail, victims, checked, result_node
FROM kp_fix_old
