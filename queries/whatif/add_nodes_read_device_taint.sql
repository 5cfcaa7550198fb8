-- what-if --add-nodes (planner/whatif_add_slices.c): the template devices'
-- taints (no id; the device's)
SELECT NULL, device_id, seq, key, value, effect, time_added FROM device_taint ORDER BY device_id, seq
