-- what-if (planner/whatif_tables.c): an added pod, for run_pod
INSERT OR REPLACE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id, workload_id,
	node_name, seq)
VALUES(?1, ?2, ?3, 'added', ?4, ?5, ?6, ?7)
