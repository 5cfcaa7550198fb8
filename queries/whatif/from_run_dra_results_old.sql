-- what-if --from-run on a database whose dra_allocation predates its
-- consumed column (every device taken whole, as those runs recorded them):
-- the devices run ?1 allocated, as the claims' results
INSERT INTO temp.resource_claim_result(claim_id, seq, request, driver, pool, device, admin_access)
SELECT claim_id, 1000 + seq, request, driver, pool, device, admin_access FROM dra_allocation WHERE run_id = ?1;
