-- kplan plan --mode rebalance (planner/rebalance_write.c): one resource's
-- utilisation over the nodes, mean and standard deviation before and after.
INSERT INTO rebalance_util(run_id, resource, nodes, mean_before, stddev_before,
  mean_after, stddev_after) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
