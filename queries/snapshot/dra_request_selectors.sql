-- A request's CEL selectors (spec ?1, request ?2, subrequest ?3).
SELECT s.expression, s.path, p.source, s.expr_line, s.expr_col, p.namespace, p.name
FROM claim_request_selector s JOIN claim_spec p ON p.id = s.spec_id
WHERE s.spec_id = ?1 AND s.request = ?2 AND s.subrequest = ?3 ORDER BY s.seq;
