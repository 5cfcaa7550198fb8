-- A claim spec's (?1) constraints.
SELECT requests, match_attribute, distinct_attribute FROM claim_constraint WHERE spec_id = ?1 ORDER BY seq;
