-- A device's (?1) taints.
SELECT key, value, effect FROM device_taint WHERE device_id = ?1 ORDER BY seq;
