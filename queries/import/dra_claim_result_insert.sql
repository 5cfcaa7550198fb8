-- kplan import (importers/store_dra.c): one allocation result of a claim.
INSERT INTO resource_claim_result(claim_id, seq, request, driver, pool, device, admin_access, share_id, tolerations)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
