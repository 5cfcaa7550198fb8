-- kplan report, section gpu (key/value, after gpu_cte.sql): the sums of the
-- run's gpu_fragmentation rows.  gpu_nodes: rows; gpus, milli,
-- allocated_milli, free_milli: sums of the columns (milli = gpus * 1000,
-- allocated = milli - free); allocated_pct: allocated_milli of milli;
-- frag_milli: the sum of frag_milli, rounded to 2 decimals; frag_pct: of
-- free_milli (NULL when nothing is free); usable_milli: free_milli -
-- frag_milli, what the typical shapes can still use; typical_shapes: the
-- run's gpu_typical_shape rows.
SELECT count(*) AS gpu_nodes,
       COALESCE(sum(gpus), 0) AS gpus,
       COALESCE(sum(milli), 0) AS milli,
       COALESCE(sum(allocated_milli), 0) AS allocated_milli,
       CASE WHEN sum(milli) > 0 THEN round(100.0 * sum(allocated_milli) / sum(milli), 1) END AS allocated_pct,
       COALESCE(sum(free_milli), 0) AS free_milli,
       round(COALESCE(sum(frag_milli), 0), 2) AS frag_milli,
       CASE WHEN sum(free_milli) > 0 THEN round(100.0 * sum(frag_milli) / sum(free_milli), 1) END AS frag_pct,
       round(COALESCE(sum(free_milli) - sum(frag_milli), 0), 2) AS usable_milli,
       (SELECT count(*) FROM gpu_typical_shape WHERE run_id = ?1) AS typical_shapes
FROM gf
