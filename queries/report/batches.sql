-- kplan report, section batches: the imports made before the run, with the
-- counts import_batch.counts holds.  ?1 the run; ?3 1 to leave out start
-- times (--no-timing).
SELECT b.id, CASE WHEN ?3 THEN NULL ELSE b.started END,
 CASE WHEN json_valid(b.sources) THEN (SELECT group_concat(value, ', ') FROM json_each(b.sources)) ELSE b.sources END,
 CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.nodes') END,
 CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.pods') END,
 CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.generated_pods') END,
 CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.workloads') END,
 CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.files') END,
 CASE WHEN json_valid(b.counts) THEN json_extract(b.counts, '$.bytes') END
FROM import_batch b WHERE b.started <= (SELECT started FROM run WHERE id = ?1) ORDER BY b.id
