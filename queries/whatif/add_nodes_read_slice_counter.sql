-- what-if --add-nodes (planner/whatif_add_slices.c): the template slices'
-- shared counters (no id; the slice's)
SELECT NULL, slice_id, counter_set, counter, value, quantity FROM slice_counter ORDER BY slice_id, counter_set, counter
