-- kplan import (importers/store_expand.c): the resource claims of workload
-- ?1's pod template, in spec order, for the pods generated from it.
SELECT name, claim_name, template, containers FROM workload_resource_claim WHERE workload_id = ?1 ORDER BY seq
