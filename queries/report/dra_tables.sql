-- kplan report, devices sections: one row when the database has the DRA
-- tables the sections read (schema/dra.sql; a database imported before them
-- has none, and then the sections are left out).  dra_allocation is looked
-- for apart (dra_has_allocation.sql), as volume_decision is.
SELECT 1 WHERE (SELECT count(*) FROM sqlite_master WHERE type = 'table'
                 AND name IN ('resource_slice', 'slice_device', 'resource_claim', 'resource_claim_result',
                              'pod_resource_claim')) = 5
