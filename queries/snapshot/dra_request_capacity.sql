-- Does a claim spec (?1) request capacity (consumable capacity, not modelled)?
SELECT count(*) FROM claim_request_capacity WHERE spec_id = ?1;
