-- An allocated claim's (?1) results: seq, request, device, admin access, a share (shareID).
SELECT request, driver, pool, device, admin_access, seq, share_id IS NOT NULL
FROM resource_claim_result WHERE claim_id = ?1 ORDER BY seq;
