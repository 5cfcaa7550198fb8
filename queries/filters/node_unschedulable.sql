-- NodeUnschedulable (kube-scheduler-semantics.md §5.1; nodeunschedulable/node_unschedulable.go):
-- a cordoned node (spec.unschedulable) fails every pod that does not tolerate
-- the taint node.kubernetes.io/unschedulable:NoSchedule.
-- Contract of queries/filters/*.sql: over temp.kp_classes(class_id), return the
-- FAILING pairs as (class_id, node_id, plugin, reason, rank); per pair the row
-- with the lowest rank is the node's reason.
SELECT c.class_id, n.id AS node_id, 'NodeUnschedulable' AS plugin,
       'node(s) were unschedulable' AS reason, 0 AS rank
FROM node n CROSS JOIN temp.kp_classes c   -- the cordoned nodes first: one scan of node, not one per class
WHERE n.unschedulable AND NOT EXISTS (
  SELECT 1 FROM class_toleration t
  WHERE t.class_id = c.class_id
    AND kplan_tolerates(t.key, t.operator, t.value, t.effect,
                        'node.kubernetes.io/unschedulable', '', 'NoSchedule'));
