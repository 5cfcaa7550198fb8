-- StorageClasses, with whether the CSIDriver named like the provisioner
-- tracks capacity (hasEnoughCapacity), and the default class (the last one
-- imported of those marked default).
SELECT sc.name, sc.provisioner, sc.binding_mode = 'WaitForFirstConsumer', sc.allowed_topologies,
       COALESCE(d.storage_capacity, 0),
       sc.id = (SELECT max(id) FROM storage_class WHERE is_default = 1)
FROM storage_class sc
LEFT JOIN csi_driver d ON d.name = sc.provisioner
ORDER BY sc.name;
