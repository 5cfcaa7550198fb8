-- kplan plan --mode rebalance (planner/rebalance_write.c): a node moves leave
-- or reach, or that the run freed.
INSERT INTO rebalance_node(run_id, node_id, moves_out, moves_in, freed)
VALUES(?1, ?2, ?3, ?4, ?5)
