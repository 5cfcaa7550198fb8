-- One of VolumeBinding's decisions in the run (volume_decision).
INSERT INTO volume_decision(run_id, seq, pod_id, claim_id, namespace, claim, action, pv, node_id)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9);
