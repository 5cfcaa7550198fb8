-- NodeAffinity filter (kube-scheduler-semantics.md §5.4; nodeaffinity/node_affinity.go and
-- component-helpers nodeaffinity.go): a node passes when every nodeSelector
-- pair is among its labels AND (no required node affinity, or at least one
-- nodeSelectorTerm whose every matchExpression / matchField matches).  A term
-- with no expressions and no fields matches nothing.
WITH sel AS (SELECT DISTINCT s.class_id FROM class_node_selector s JOIN temp.kp_classes c USING (class_id)),
req AS (SELECT p.id AS class_id FROM pod_class p JOIN temp.kp_classes c ON c.class_id = p.id
        WHERE p.has_required_node_affinity)
SELECT sel.class_id, n.id AS node_id, 'NodeAffinity' AS plugin,
       'node(s) didn''t match Pod''s node affinity/selector' AS reason, 0 AS rank
FROM sel JOIN node n
WHERE EXISTS (
  SELECT 1 FROM class_node_selector s
  WHERE s.class_id = sel.class_id
    AND NOT EXISTS (SELECT 1 FROM node_label l WHERE l.node_id = n.id AND l.key = s.key AND l.value = s.value))
UNION ALL
SELECT req.class_id, n.id, 'NodeAffinity',
       'node(s) didn''t match Pod''s node affinity/selector', 0
FROM req JOIN node n
WHERE NOT EXISTS (
  SELECT 1 FROM class_node_term t
  WHERE t.class_id = req.class_id AND t.required = 1
    AND EXISTS (SELECT 1 FROM class_node_expr e
                WHERE e.class_id = t.class_id AND e.required = 1 AND e.term = t.term)
    AND NOT EXISTS (
      SELECT 1 FROM class_node_expr e
      WHERE e.class_id = t.class_id AND e.required = 1 AND e.term = t.term
        AND NOT kplan_match_expression(
              e.operator,
              CASE WHEN e.field THEN n.name
                   ELSE (SELECT l.value FROM node_label l WHERE l.node_id = n.id AND l.key = e.key) END,
              e.vals)));
