-- TaintToleration filter (kube-scheduler-semantics.md §5.3; tainttoleration/taint_toleration.go,
-- FindMatchingUntoleratedTaint): a node fails when one of its NoSchedule or
-- NoExecute taints is tolerated by none of the pod's tolerations; the reason
-- names the FIRST such taint in spec.taints order (rank = its position).
-- PreferNoSchedule taints never filter (they only score).
-- ?1: TaintTolerationComparisonOperators on (Gt/Lt tolerations compare; off:
-- they tolerate nothing); ?2: kube 1.35+, whose reason names no taint
-- ("node(s) had untolerated taint(s)", PR #134740); NULL: off / the older text.
SELECT c.class_id, x.node_id, 'TaintToleration' AS plugin,
       CASE WHEN ?2 THEN 'node(s) had untolerated taint(s)'
            ELSE 'node(s) had untolerated taint {' || x.key || ': ' || x.value || '}' END AS reason,
       x.seq AS rank
FROM temp.kp_classes c JOIN node_taint x ON x.effect IN ('NoSchedule', 'NoExecute')
WHERE NOT EXISTS (
  SELECT 1 FROM class_toleration t
  WHERE t.class_id = c.class_id
    AND kplan_tolerates(t.key, t.operator, t.value, t.effect, x.key, x.value, x.effect, coalesce(?1, 0)));
