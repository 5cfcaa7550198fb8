-- What a result (claim ?1, seq ?2) consumes of its device's capacities.
SELECT domain, name, value FROM resource_claim_consumed WHERE claim_id = ?1 AND seq = ?2;
