-- A request's capacity.requests (spec ?1, request ?2, subrequest ?3): consumable capacity.
SELECT name, value FROM claim_request_capacity WHERE spec_id = ?1 AND request = ?2 AND subrequest = ?3 ORDER BY name;
