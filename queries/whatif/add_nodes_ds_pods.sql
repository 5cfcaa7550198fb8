-- what-if --add-nodes (planner/whatif_add_nodes.c): a pod to make for each
-- DaemonSet and each node option ?1 added that no static filter turned away
SELECT w.id, w.namespace, w.name, w.uid, w.template_hash, COALESCE(w.pod_class_id, w.class_id),
	w.labels, w.batch_id, n.name FROM workload w JOIN temp.kp_whatif_node n ON n.seq = ?1
	AND n.change = 'added' WHERE w.kind = 'DaemonSet' AND COALESCE(w.pod_class_id, w.class_id) IS NOT NULL
	AND NOT EXISTS (SELECT 1 FROM temp.kp_whatif_dsfail f WHERE f.class_id =
	COALESCE(w.pod_class_id, w.class_id) AND f.node_id = n.node_id) ORDER BY w.id, n.node_id
