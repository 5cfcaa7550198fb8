-- kplan import (importers/store_dra.c): one consumed capacity of a result.
INSERT INTO resource_claim_consumed(claim_id, seq, domain, name, value, quantity) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
