-- what-if --from-run: the devices run ?1 allocated, as the claims' results; a
-- share (consumed not NULL) is one again, with what it consumes
INSERT INTO temp.resource_claim_result(claim_id, seq, request, driver, pool, device, admin_access, share_id)
SELECT claim_id, 1000 + seq, request, driver, pool, device, admin_access,
       CASE WHEN consumed IS NOT NULL THEN 'run-' || run_id || '-' || seq END
FROM dra_allocation WHERE run_id = ?1
