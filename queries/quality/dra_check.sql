-- kplan plan quality (planner/quality.c): 1 when the DRA tables devices.sql
-- reads all exist (in main, or in temp for a dry run): a database without
-- them has no devices to count.
SELECT count(DISTINCT name) = 6 FROM (SELECT type, name FROM main.sqlite_schema
                                      UNION ALL SELECT type, name FROM temp.sqlite_schema)
WHERE type = 'table' AND name IN ('resource_slice', 'slice_device', 'resource_claim', 'resource_claim_result',
                                  'pod_resource_claim', 'dra_allocation')
