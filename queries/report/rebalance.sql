-- kplan report, section rebalance: a --mode rebalance run's moves in order
-- (move_wave, planner/rebalance.h).  ?1 the run.
SELECT wave, seq, namespace, pod, from_node, to_node, strategy, gain, cost, detail
FROM move_wave WHERE run_id = ?1 ORDER BY seq
