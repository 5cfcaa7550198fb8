-- kplan import (importers/store_expand.c): after the expansion, a
-- re-imported workload that is gone leaves no generated pods behind.
DROP TABLE IF EXISTS temp.kp_keep;
DELETE FROM pod_label WHERE pod_id IN (SELECT id FROM pod WHERE workload_id IS NOT NULL AND
workload_id NOT IN (SELECT id FROM workload));
DELETE FROM pod WHERE workload_id IS NOT NULL AND workload_id NOT IN (SELECT id FROM workload);
DELETE FROM pod_volume WHERE pod_id NOT IN (SELECT id FROM pod);
DELETE FROM pod_resource_claim WHERE pod_id NOT IN (SELECT id FROM pod);
DELETE FROM workload_resource_claim WHERE workload_id NOT IN (SELECT id FROM workload);
DELETE FROM workload_volume WHERE workload_id NOT IN (SELECT id FROM workload);
DELETE FROM workload_claim_template WHERE workload_id NOT IN (SELECT id FROM workload);
