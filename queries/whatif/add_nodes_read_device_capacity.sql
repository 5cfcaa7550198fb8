-- what-if --add-nodes (planner/whatif_add_slices.c): the template devices'
-- capacities (no id; the device's)
SELECT NULL, device_id, domain, name, value, quantity, policy_default, policy_min, policy_max, policy_step,
	policy_valid_values FROM device_capacity ORDER BY device_id, domain, name
