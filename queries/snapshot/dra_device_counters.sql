-- What a device (?1) consumes of its pool's counter sets.
SELECT counter_set, counter, value FROM device_counter WHERE device_id = ?1 ORDER BY counter_set, counter;
