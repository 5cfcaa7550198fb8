-- kplan plan --mode rebalance (planner/rebalance_write.c): one move, in
-- simulation order (seq), with its wave, the nodes by id and by name.
INSERT INTO move_wave(run_id, seq, wave, pod_id, from_node_id, to_node_id, strategy, gain,
  cost, detail, namespace, pod, from_node, to_node)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
