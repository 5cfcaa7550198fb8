-- kplan import (importers/store_dra.c): the claim spec of a ResourceClaim or
-- ResourceClaimTemplate read (a new row each time; the one it replaces goes
-- when the batch finishes, dra_orphan_specs.sql).
INSERT INTO claim_spec(kind, namespace, name, config, source, line) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
