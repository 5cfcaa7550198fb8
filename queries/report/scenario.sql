-- kplan report, section scenario: what a what-if run changed in the cluster,
-- in the order applied (run_scenario, planner/whatif.h).  ?1 the run.
SELECT seq, option, value, nodes, pods_pending, pods_added, pods_removed, effect, result
FROM run_scenario WHERE run_id = ?1 ORDER BY seq
