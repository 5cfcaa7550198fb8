-- kplan plan (planner/snapshot_classes.c): the classes' pod (anti-)affinity
-- terms, in spec order.
SELECT class_id, anti, required, weight, topology_key, selector, namespaces, ns_selector,
 match_label_keys, mismatch_label_keys FROM class_pod_affinity ORDER BY class_id, seq
