-- what-if (planner/whatif_nodes.c): the bound pods on the selected nodes that
-- become pending (option ?1): not DaemonSet or static (Node-owned) pods, not
-- finished or terminating ones
INSERT OR IGNORE INTO temp.kp_whatif_moved(pod_id, node_id, seq) SELECT p.id, s.node_id, ?1
FROM temp.pod p JOIN temp.kp_whatif_sel s ON s.name = p.node_name
WHERE NOT (COALESCE(p.owner_kind, '') IN ('DaemonSet', 'Node') OR p.daemon_node IS NOT NULL)
	AND NOT (p.phase IN ('Succeeded', 'Failed') OR p.terminating)
