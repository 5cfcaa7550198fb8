-- what-if --add-nodes (planner/whatif_add_slices.c): the template devices'
-- attributes (no id; the device's)
SELECT NULL, device_id, domain, name, type, value FROM device_attribute ORDER BY device_id, domain, name
