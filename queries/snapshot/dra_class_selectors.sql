-- Their CEL selectors, in order (classes by name).
SELECT c.name, s.expression, s.path, c.source, s.expr_line, s.expr_col
FROM device_class_selector s JOIN device_class c ON c.id = s.class_id ORDER BY c.name, s.seq;
