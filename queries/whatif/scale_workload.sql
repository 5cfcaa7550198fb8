-- what-if --scale (planner/whatif_scale.c): the workload ?1/?2, of kind ?3
-- when given; more than one row: the name is ambiguous
SELECT id, kind, uid, template_hash, COALESCE(pod_class_id, class_id), labels,
	batch_id FROM workload WHERE namespace = ?1 AND name = ?2 AND (?3 IS NULL OR kind = ?3)
ORDER BY kind
