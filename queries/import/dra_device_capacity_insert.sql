-- kplan import (importers/store_dra.c): one capacity of a device and its
-- request policy.
INSERT INTO device_capacity(device_id, domain, name, value, quantity, policy_default, policy_min, policy_max,
                            policy_step, policy_valid_values)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
