-- what-if move-pods (planner/whatif_fix.c): the pods ?2 (ids separated by
-- commas; not DaemonSet or static pods, not finished or terminating ones)
-- re-created (kp_whatif_requeued): queued after every pod pending before,
-- as the replacements their controllers make would be (?1 unused)
INSERT OR IGNORE INTO temp.kp_whatif_requeued(pod_id) SELECT p.id FROM temp.pod p
WHERE p.id IN (SELECT CAST(value AS INTEGER) FROM json_each('[' || ?2 || ']'))
	AND NOT (COALESCE(p.owner_kind, '') IN ('DaemonSet', 'Node') OR p.daemon_node IS NOT NULL)
	AND NOT (p.phase IN ('Succeeded', 'Failed') OR p.terminating)
