-- kplan import (importers/store_dra.c, when the batch finishes): claim specs
-- no claim or template uses any more (replaced by a re-import) go, with
-- their rows.
CREATE TEMP TABLE IF NOT EXISTS kp_used_spec(id INTEGER PRIMARY KEY);
DELETE FROM temp.kp_used_spec;
INSERT OR IGNORE INTO temp.kp_used_spec SELECT spec_id FROM resource_claim;
INSERT OR IGNORE INTO temp.kp_used_spec SELECT spec_id FROM resource_claim_template;
DELETE FROM claim_request WHERE spec_id NOT IN (SELECT id FROM temp.kp_used_spec);
DELETE FROM claim_request_selector WHERE spec_id NOT IN (SELECT id FROM temp.kp_used_spec);
DELETE FROM claim_request_toleration WHERE spec_id NOT IN (SELECT id FROM temp.kp_used_spec);
DELETE FROM claim_request_capacity WHERE spec_id NOT IN (SELECT id FROM temp.kp_used_spec);
DELETE FROM claim_constraint WHERE spec_id NOT IN (SELECT id FROM temp.kp_used_spec);
DELETE FROM claim_spec WHERE id NOT IN (SELECT id FROM temp.kp_used_spec);
DROP TABLE temp.kp_used_spec;
