-- kplan plan (planner/snapshot_load.c): every PodDisruptionBudget, in id order.
SELECT id, namespace, name, selector, has_status, disruptions_allowed, min_available,
 max_unavailable, disrupted_pods FROM pdb ORDER BY id
