-- what-if remove-pods (planner/whatif_fix.c): the pods ?2 (ids separated by
-- commas) are removed by option ?1, for run_pod
INSERT OR IGNORE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id, workload_id,
	node_name, seq) SELECT p.id, p.namespace, p.name, 'removed', p.class_id, p.workload_id, p.node_name, ?1
FROM temp.pod p WHERE p.id IN (SELECT CAST(value AS INTEGER) FROM json_each('[' || ?2 || ']'))
