-- kplan plan (planner/snapshot_classes.c): the classes' node affinity terms,
-- each with how many matchExpressions (field 0) and matchFields (field 1) it has.
SELECT t.class_id, t.required, t.term, t.weight,
 (SELECT count(*) FROM class_node_expr e WHERE e.class_id = t.class_id AND e.required = t.required
  AND e.term = t.term AND e.field = 0),
 (SELECT count(*) FROM class_node_expr e WHERE e.class_id = t.class_id AND e.required = t.required
  AND e.term = t.term AND e.field = 1)
FROM class_node_term t ORDER BY t.class_id, t.required, t.term
