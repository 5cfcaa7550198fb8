-- kplan plan --mode rebalance (planner/rebalance_write.c): the run is a rebalance.
UPDATE run SET mode = 'rebalance' WHERE id = ?1
