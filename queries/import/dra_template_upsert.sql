-- kplan import (importers/store_dra.c): a ResourceClaimTemplate, new or
-- replacing the one of its namespace and name (the claims generated from it
-- take its new spec when the batch finishes).
INSERT INTO resource_claim_template(namespace, name, spec_id, api_version, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)
ON CONFLICT(namespace, name) DO UPDATE SET
    spec_id = excluded.spec_id, api_version = excluded.api_version, source = excluded.source,
    line = excluded.line, batch_id = excluded.batch_id
