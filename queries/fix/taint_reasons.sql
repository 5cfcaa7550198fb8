-- kplan fix (planner/fix_relax.c): when TaintToleration rejected pod ?2 in run ?1, the
-- taints it rejected it for: per node, the first NoSchedule/NoExecute taint in spec
-- order that none of the class's tolerations tolerates (FindMatchingUntoleratedTaint),
-- the taints on the most nodes first, as "node(s) had untolerated taint {KEY: VALUE}"
-- (kube's reason up to 1.34: from 1.35 the reason names no taint, so it is worked out
-- here from the nodes).  ?3: TaintTolerationComparisonOperators (NULL: off).
WITH firsts AS (
  SELECT x.node_id, min(x.seq) AS seq
  FROM pod p JOIN node_taint x ON x.effect IN ('NoSchedule', 'NoExecute')
  WHERE p.id = ?2
    AND EXISTS (SELECT 1 FROM pod_failure f WHERE f.run_id = ?1 AND f.pod_id = ?2 AND f.plugin = 'TaintToleration')
    AND NOT EXISTS (
      SELECT 1 FROM class_toleration t
      WHERE t.class_id = p.class_id
        AND kplan_tolerates(t.key, t.operator, t.value, t.effect, x.key, x.value, x.effect, coalesce(?3, 0)))
  GROUP BY x.node_id)
SELECT 'node(s) had untolerated taint {' || x.key || ': ' || x.value || '}' AS reason
FROM firsts f JOIN node_taint x ON x.node_id = f.node_id AND x.seq = f.seq
GROUP BY x.key, x.value
ORDER BY count(*) DESC, reason
