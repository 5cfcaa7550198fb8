-- kplan report, section gpu_fragmented (after gpu_cte.sql): the 10 nodes
-- with the most fragmented GPU milli (frag_milli > 0), the most first, then
-- by name; free_list: each GPU's free milli in device order.
SELECT node, pool, gpus, milli, allocated_milli, free_milli, round(frag_milli, 2) AS frag_milli, frag_pct,
       cpu_left, free_list
FROM gf WHERE frag_milli > 0 ORDER BY frag_milli DESC, node LIMIT 10
