-- ResourceSlices of each pool's highest generation, pools by (driver, pool), slices by name;
-- with the pool's slice count and how many slices of that generation exist.
WITH cnt AS MATERIALIZED (SELECT driver, pool, pool_generation, count(*) AS n FROM resource_slice GROUP BY 1, 2, 3),
gen AS MATERIALIZED (SELECT driver, pool, max(pool_generation) AS g FROM cnt GROUP BY 1, 2)
SELECT s.id, s.name, s.driver, s.pool, s.pool_generation, s.pool_slice_count, s.node_name, s.node_selector,
       s.all_nodes, s.per_device_node_selection, cnt.n
FROM resource_slice s JOIN gen ON gen.driver = s.driver AND gen.pool = s.pool AND gen.g = s.pool_generation
JOIN cnt ON cnt.driver = s.driver AND cnt.pool = s.pool AND cnt.pool_generation = s.pool_generation
ORDER BY s.driver, s.pool, s.name;
