-- what-if relax CLASS:node-affinity:TERM.SEQ (planner/whatif_fix.c): class
-- ?1's matchExpression (or matchField) SEQ of required term TERM (?2 =
-- 'TERM.SEQ') dropped
DELETE FROM temp.class_node_expr WHERE class_id = ?1 AND required = 1
AND term = CAST(substr(?2, 1, instr(?2, '.') - 1) AS INTEGER)
AND seq = CAST(substr(?2, instr(?2, '.') + 1) AS INTEGER)
