-- what-if (planner/whatif_nodes.c): the pods that vanish with the removed
-- nodes (option ?1): DaemonSet and static pods, finished and terminating
-- ones, and the pending DaemonSet pods made for those nodes
INSERT OR IGNORE INTO temp.kp_whatif_pod(pod_id, namespace, name, change, class_id, workload_id,
	node_name, seq)
SELECT p.id, p.namespace, p.name, 'removed', p.class_id, p.workload_id,
	COALESCE(p.node_name, p.daemon_node), ?1 FROM temp.pod p
WHERE (p.node_name IN (SELECT name FROM temp.kp_whatif_sel)
	AND ((COALESCE(p.owner_kind, '') IN ('DaemonSet', 'Node') OR p.daemon_node IS NOT NULL)
		OR (p.phase IN ('Succeeded', 'Failed') OR p.terminating)))
OR (p.node_name IS NULL AND p.daemon_node IN (SELECT name FROM temp.kp_whatif_sel))
