-- kplan report, section gpu_pools (after gpu_cte.sql): the figures of the
-- section gpu per pool (gf.pool: the instance-type label, else the GPU
-- model label, else '(none)'); pools of the instance-type label first, then
-- those of the model label, each by name.
SELECT pool, pool_label, count(*) AS nodes, sum(gpus) AS gpus, sum(milli) AS milli,
       sum(allocated_milli) AS allocated_milli,
       round(100.0 * sum(allocated_milli) / sum(milli), 1) AS allocated_pct,
       sum(free_milli) AS free_milli, round(sum(frag_milli), 2) AS frag_milli,
       CASE WHEN sum(free_milli) > 0 THEN round(100.0 * sum(frag_milli) / sum(free_milli), 1) END AS frag_pct
FROM gf GROUP BY pool_label, pool
ORDER BY pool_label IS NULL, pool_label = 'alibabacloud.com/gpu-card-model', pool
