-- An allocated claim's (?1) results.
SELECT request, driver, pool, device, admin_access FROM resource_claim_result WHERE claim_id = ?1 ORDER BY seq;
