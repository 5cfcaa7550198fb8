-- kplan report, section gpu_nodes (after gpu_cte.sql): every node of the
-- run's gpu_fragmentation, by name (the HTML chart chart-gpu draws them).
SELECT node, pool, gpus, milli, allocated_milli, free_milli, round(frag_milli, 2) AS frag_milli, frag_pct,
       cpu_left, free_list
FROM gf ORDER BY node
