-- kplan import (importers/store_dra.c): one constraint of a claim spec.
INSERT INTO claim_constraint(spec_id, seq, requests, match_attribute, distinct_attribute)
VALUES(?1, ?2, ?3, ?4, ?5)
