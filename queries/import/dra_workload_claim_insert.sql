-- kplan import (importers/store_dra.c): one resource claim of a workload's
-- pod template.
INSERT OR REPLACE INTO workload_resource_claim(workload_id, name, seq, claim_name, template, containers)
VALUES(?1, ?2, ?3, ?4, ?5, ?6)
