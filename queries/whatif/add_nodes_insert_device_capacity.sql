-- what-if --add-nodes (planner/whatif_add_slices.c): a row of
-- add_nodes_read_device_capacity.sql for the added device ?2
INSERT INTO temp.device_capacity(device_id, domain, name, value, quantity, policy_default, policy_min, policy_max,
	policy_step, policy_valid_values)
VALUES(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
