-- what-if --mode full (planner/whatif_mode.c): every bound pod becomes pending
-- (option ?1), except DaemonSet and static (Node-owned) pods, finished and
-- terminating ones
INSERT OR IGNORE INTO temp.kp_whatif_moved(pod_id, node_id, seq) SELECT p.id, n.id, ?1
FROM temp.pod p JOIN temp.node n ON n.name = p.node_name
WHERE NOT (COALESCE(p.owner_kind, '') IN ('DaemonSet', 'Node') OR p.daemon_node IS NOT NULL)
	AND NOT (p.phase IN ('Succeeded', 'Failed') OR p.terminating)
