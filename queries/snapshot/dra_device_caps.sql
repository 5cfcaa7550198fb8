-- A device's (?1) capacities.
SELECT domain, name, value FROM device_capacity WHERE device_id = ?1 ORDER BY domain, name;
