-- what-if relax CLASS:node-affinity:TERM.SEQ (planner/whatif_fix.c): with no
-- required term left, class ?1 has no required node affinity
UPDATE temp.pod_class SET has_required_node_affinity = 0 WHERE id = ?1 AND NOT EXISTS
(SELECT 1 FROM temp.class_node_term t WHERE t.class_id = ?1 AND t.required = 1)
