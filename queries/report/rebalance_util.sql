-- kplan report, section rebalance_util: per resource over the nodes, the mean
-- and standard deviation of utilisation before and after the moves, and the
-- nodes the moves free (rebalance_util, rebalance_run).  ?1 the run.
SELECT u.resource, u.nodes, u.mean_before, u.stddev_before, u.mean_after, u.stddev_after, r.nodes_freed
FROM rebalance_util u JOIN rebalance_run r ON r.run_id = u.run_id WHERE u.run_id = ?1
ORDER BY u.resource <> 'cpu', u.resource <> 'memory', u.resource
