-- kplan plan (planner/snapshot_classes.c): the node affinity terms'
-- requirements, in spec order.
SELECT class_id, required, term, field, key, operator, vals FROM class_node_expr
ORDER BY class_id, required, term, seq
