-- kplan report --compare, section runs: run A and run B side by side, A
-- first.  ?1 run A, ?2 run B; ?3 1 to leave out start times and durations
-- (--no-timing).
SELECT r.id, CASE WHEN ?3 THEN NULL ELSE r.started END, r.seed, r.config_source, r.options,
 (SELECT count(*) FROM placement WHERE run_id = r.id),
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'keep'),
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'bind'),
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'move'),
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'evict'),
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'unschedulable'),
 (SELECT count(*) FROM eviction WHERE run_id = r.id),
 CASE WHEN ?3 THEN NULL ELSE round(r.elapsed, 3) END
FROM run r WHERE r.id IN (?1, ?2) ORDER BY r.id = ?2, r.id
