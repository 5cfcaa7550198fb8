-- kplan explain (planner/explain_replay.c): pod ?1/?2 as run ?3's what-if
-- scenario added it (a negative id; the replay makes it again with the same
-- id).  Fails to prepare on a database made before what-if (no run_pod).
SELECT pod_id FROM run_pod WHERE run_id = ?3 AND namespace = ?1 AND name = ?2 AND change = 'added'
