-- what-if move-pods (planner/whatif_fix.c): of the pods ?2 re-created
-- (fix_move_pods_requeue.sql), those bound to a node taken off it by option ?1
INSERT OR IGNORE INTO temp.kp_whatif_moved(pod_id, node_id, seq) SELECT p.id, n.id, ?1
FROM temp.pod p JOIN main.node n ON n.name = p.node_name
WHERE p.id IN (SELECT CAST(value AS INTEGER) FROM json_each('[' || ?2 || ']'))
	AND p.id IN (SELECT pod_id FROM temp.kp_whatif_requeued)
