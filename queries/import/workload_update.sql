-- kplan import (importers/store_objects.c): a workload read again keeps its id (?1).
UPDATE workload SET kind = ?2, namespace = ?3, name = ?4, uid = ?5, api_version = ?6,
       replicas = ?7, selector = ?8, owner_kind = ?9, owner_name = ?10, template_hash = ?11,
       class_id = ?12, labels = ?13, created = ?14, source = ?15, line = ?16, batch_id = ?17,
       pod_class_id = ?18
WHERE id = ?1
