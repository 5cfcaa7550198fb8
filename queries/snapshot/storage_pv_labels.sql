-- PersistentVolumes' labels (claim selectors, VolumeZone), by PV name.
SELECT v.name, l.key, l.value
FROM pv_label l JOIN pv v ON v.id = l.pv_id
ORDER BY v.name, l.key;
