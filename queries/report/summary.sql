-- kplan report, section summary (reports/model.c): one row, each column a
-- (key, value) pair.  ?1 the run; ?3 1 to leave out the start time and the
-- elapsed seconds (--no-timing).  tie_break: node-rank when a profile of the
-- run's configuration ranked the nodes (run.config "tieBreak", --tie-break,
-- --strategy fgd), else random (kube's).
SELECT r.id AS run, CASE WHEN ?3 THEN NULL ELSE r.started END AS started, r.kplan AS kplan,
 r.seed AS seed,
 CASE WHEN json_valid(r.config) AND EXISTS (SELECT 1 FROM json_each(r.config, '$.profiles') p
                                            WHERE json_extract(p.value, '$.tieBreak') = 'node-rank')
      THEN 'node-rank' ELSE 'random' END AS tie_break,
 r.config_source AS config_source,
 CASE WHEN json_valid(r.options) THEN json_extract(r.options, '$.no_preemption') END AS no_preemption,
 r.nodes AS nodes, r.pending AS pending,
 (SELECT count(*) FROM placement WHERE run_id = r.id) AS pods,
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'keep') AS keep,
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'bind') AS bind,
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'move') AS move,
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'evict') AS evict,
 (SELECT count(*) FROM placement WHERE run_id = r.id AND action = 'unschedulable') AS unschedulable,
 r.ignored AS other_schedulers,
 (SELECT count(*) FROM eviction WHERE run_id = r.id) AS evictions,
 (SELECT count(*) FROM eviction WHERE run_id = r.id AND pdb_violated) AS pdb_violations,
 r.passes AS passes, CASE WHEN ?3 THEN NULL ELSE round(r.elapsed, 3) END AS elapsed_seconds,
 (SELECT count(*) FROM import_batch b WHERE b.started <= r.started) AS input_batches,
 (SELECT count(*) FROM run_warning WHERE run_id = r.id) AS warnings
FROM run r WHERE r.id = ?1
