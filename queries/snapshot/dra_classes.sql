-- DeviceClasses, by name.
SELECT id, name FROM device_class ORDER BY name;
