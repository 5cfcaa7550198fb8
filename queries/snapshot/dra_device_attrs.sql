-- A device's (?1) attributes.
SELECT domain, name, type, value FROM device_attribute WHERE device_id = ?1 ORDER BY domain, name;
