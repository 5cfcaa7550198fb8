-- what-if --add-nodes (planner/whatif_add_nodes.c): DaemonSets with a pod
-- template
SELECT count(*) FROM workload WHERE kind = 'DaemonSet' AND COALESCE(pod_class_id, class_id)
IS NOT NULL
