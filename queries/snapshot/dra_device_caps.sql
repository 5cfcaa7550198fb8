-- A device's (?1) capacities, with their requestPolicy (consumable capacity).
SELECT domain, name, value, policy_default, policy_min, policy_max, policy_step, policy_valid_values
FROM device_capacity WHERE device_id = ?1 ORDER BY domain, name;
