-- A request's tolerations of device taints (spec ?1, request ?2, subrequest ?3).
SELECT key, operator, value, effect FROM claim_request_toleration
WHERE spec_id = ?1 AND request = ?2 AND subrequest = ?3 ORDER BY seq;
