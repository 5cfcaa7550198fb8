-- kplan plan (planner/snapshot_classes.c): the classes' topology spread
-- constraints, in spec order.
SELECT class_id, max_skew, topology_key, when_unsatisfiable, selector, min_domains,
 node_affinity_policy, node_taints_policy, match_label_keys FROM class_spread ORDER BY class_id, seq
