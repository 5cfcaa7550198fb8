-- what-if (planner/whatif_tables.c): a pending pod that exists only in the
-- scenario (?1 a negative id), in the TEMP copy of pod
INSERT INTO temp.pod(id, namespace, name, class_id, phase, created, owner_kind, owner_name,
	owner_uid, workload_id, daemon_node, source, batch_id)
VALUES(?1, ?2, ?3, ?4, 'Pending', ?5, ?6, ?7, ?8, ?9, ?10, 'what-if', ?11)
