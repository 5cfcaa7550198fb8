-- what-if relax CLASS:node-affinity:TERM.SEQ (planner/whatif_fix.c): the term
-- dropped too when no expression is left (an empty term matches nothing)
DELETE FROM temp.class_node_term WHERE class_id = ?1 AND required = 1
AND term = CAST(substr(?2, 1, instr(?2, '.') - 1) AS INTEGER) AND NOT EXISTS (SELECT 1
FROM temp.class_node_expr e WHERE e.class_id = ?1 AND e.required = 1
AND e.term = CAST(substr(?2, 1, instr(?2, '.') - 1) AS INTEGER))
