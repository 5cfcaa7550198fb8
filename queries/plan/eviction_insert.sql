-- kplan plan (planner/plan_write.c): one preemption victim, in eviction
-- order; ?7 the JSON list of the PodDisruptionBudgets it counted against.
INSERT INTO eviction(run_id, seq, pod_id, node_id, preemptor_pod_id, pdb_violated, pdbs)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
