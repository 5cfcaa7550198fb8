-- kplan plan (planner/static.c): what the static filters read of each class
-- in temp.kp_classes, as one text: its tolerations, nodeSelector, and
-- required node affinity (the queries in queries/filters read exactly these
-- columns), every value quoted.  Classes with the same text share one
-- verdict.
SELECT c.class_id,
 coalesce((SELECT group_concat(x, ';') FROM (SELECT quote(key) || ',' || quote(operator) || ',' || quote(value) || ','
   || quote(effect) AS x FROM class_toleration t WHERE t.class_id = c.class_id ORDER BY seq)), '') || '|' ||
 coalesce((SELECT group_concat(x, ';') FROM (SELECT quote(key) || '=' || quote(value) AS x FROM class_node_selector n
   WHERE n.class_id = c.class_id ORDER BY key, value)), '') || '|' ||
 coalesce((SELECT quote(has_required_node_affinity) FROM pod_class p WHERE p.id = c.class_id), '') || '|' ||
 coalesce((SELECT group_concat(x, ';') FROM (SELECT quote(term) AS x FROM class_node_term t
   WHERE t.class_id = c.class_id AND t.required = 1 ORDER BY term)), '') || '|' ||
 coalesce((SELECT group_concat(x, ';') FROM (SELECT quote(term) || ',' || quote(field) || ',' || quote(key) || ','
   || quote(operator) || ',' || quote(vals) AS x FROM class_node_expr e
   WHERE e.class_id = c.class_id AND e.required = 1 ORDER BY term, seq)), '')
 FROM temp.kp_classes c
