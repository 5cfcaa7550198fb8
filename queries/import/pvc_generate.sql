-- kplan import (importers/store_storage.c): the wanted claims
-- (temp.kp_want_pvc, pvc_want.sql) that do not exist yet, generated in
-- batch ?1.
INSERT INTO pvc(namespace, name, storage_class, request, access_modes, volume_mode, selector, owner_kind,
                owner_name, generated, source, line, batch_id, attributes_class)
SELECT namespace, name, storage_class, request, access_modes, volume_mode, selector, owner_kind, owner_name,
       1, source, line, ?1, attributes_class
FROM temp.kp_want_pvc k
WHERE NOT EXISTS (SELECT 1 FROM pvc WHERE pvc.namespace = k.namespace AND pvc.name = k.name)
ORDER BY rowid
