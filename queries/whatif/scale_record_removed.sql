-- what-if --scale (planner/whatif_scale.c): a replica scaling down removes,
-- for run_pod (?6: its node, or the node it was taken off)
INSERT OR REPLACE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id,
	workload_id, node_name, seq) VALUES(?1, ?2, ?3, 'removed', ?4, ?5, ?6, ?7)
