-- kplan fix (planner/fix_relax.c): pod ?2's TaintToleration reasons in run ?1,
-- the most nodes first: "node(s) had untolerated taint {KEY: VALUE}".
SELECT reason FROM pod_failure
WHERE run_id = ?1 AND pod_id = ?2 AND plugin = 'TaintToleration'
ORDER BY nodes DESC, reason
