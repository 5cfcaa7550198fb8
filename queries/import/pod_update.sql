-- kplan import (importers/store_objects.c): a pod read (or generated) again
-- keeps its id (?1); its labels are rewritten.
UPDATE pod SET namespace = ?2, name = ?3, uid = ?4, class_id = ?5, node_name = ?6,
       phase = ?7, created = ?8, start_time = ?9, terminating = ?10, nominated_node = ?11,
       owner_kind = ?12, owner_name = ?13, owner_uid = ?14, workload_id = ?15, source = ?16,
       line = ?17, batch_id = ?18, daemon_node = ?19
WHERE id = ?1
