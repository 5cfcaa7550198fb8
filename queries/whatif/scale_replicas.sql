-- what-if --scale (planner/whatif_scale.c): the replicas of workload ?1
-- (namespace ?2, name ?3, kind ?4) in the scenario, not finished, in the
-- order scaling down removes them: StatefulSet, highest ordinal first; others
-- roughly as the ReplicaSet controller: pending first, then terminating,
-- then the newest, then the last imported.  A Deployment's pods are its
-- ReplicaSets' (or, without them, those of a ReplicaSet named NAME-HASH).
-- Columns: id, name, node, the node it was taken off, class, workload.
SELECT p.id, p.name, p.node_name, (SELECT n.name FROM main.node n JOIN temp.kp_whatif_moved m ON m.node_id = n.id
	WHERE m.pod_id = p.id), p.class_id, p.workload_id FROM temp.pod p
WHERE p.namespace = ?2 AND p.phase NOT IN ('Succeeded', 'Failed') AND (p.workload_id = ?1 OR (p.workload_id IS NULL AND
	CASE WHEN ?4 = 'Deployment' THEN p.owner_kind = 'ReplicaSet' AND (p.owner_name IN (SELECT name FROM workload
		WHERE kind = 'ReplicaSet' AND namespace = ?2 AND owner_kind = 'Deployment' AND owner_name = ?3)
		OR (substr(p.owner_name, 1, length(?3) + 1) = ?3 || '-' AND instr(substr(p.owner_name, length(?3) + 2), '-') = 0))
	ELSE p.owner_kind = ?4 AND p.owner_name = ?3 END))
ORDER BY CASE WHEN ?4 = 'StatefulSet' THEN -CAST(substr(p.name, length(?3) + 2) AS INTEGER) ELSE 0 END,
	p.node_name IS NOT NULL, p.terminating DESC, p.created DESC NULLS LAST, p.id DESC
