-- kplan report, section devices_nodes (after dra_cte.sql): per node, driver
-- and pool the devices of the pool's newest generation usable there, in use
-- before the run and by it, free; node-local rows by node first, then the
-- devices of every node, then the network-attached ones.
SELECT node, driver, pool, reach, devices, in_use_before, in_use_run, in_use, free, generation, pool_status
FROM devrows ORDER BY ord, node, driver, pool, reach
