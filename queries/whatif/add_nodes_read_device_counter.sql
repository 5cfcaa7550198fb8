-- what-if --add-nodes (planner/whatif_add_slices.c): the counters the
-- template devices consume (no id; the device's)
SELECT NULL, device_id, counter_set, counter, value, quantity FROM device_counter ORDER BY device_id, counter_set, counter
