-- what-if --add-nodes (planner/whatif_add_nodes.c): the classes of the
-- DaemonSets' pods, which the static filters (queries/filters) read from
-- temp.kp_classes; no verdict yet
CREATE TEMP TABLE IF NOT EXISTS kp_classes(class_id INTEGER PRIMARY KEY);
DELETE FROM temp.kp_classes; DELETE FROM temp.kp_whatif_dsfail;
INSERT OR IGNORE INTO temp.kp_classes(class_id) SELECT COALESCE(pod_class_id, class_id)
FROM workload WHERE kind = 'DaemonSet' AND COALESCE(pod_class_id, class_id) IS NOT NULL;
