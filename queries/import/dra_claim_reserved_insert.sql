-- kplan import (importers/store_dra.c): one consumer a claim is reserved for.
INSERT INTO resource_claim_reserved(claim_id, seq, api_group, resource, name, uid) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
