-- what-if relax CLASS:node-affinity:all (planner/whatif_fix.c): class ?1 has
-- no required node affinity (the row changed counts as the one constraint
-- relaxed)
UPDATE temp.pod_class SET has_required_node_affinity = 0 WHERE id = ?1
AND has_required_node_affinity
