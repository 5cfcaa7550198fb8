-- kplan import (importers/store_objects.c): a new workload (?1 is the id of
-- workload_update, unused here: both statements bind the same numbers).
INSERT INTO workload(kind, namespace, name, uid, api_version, replicas, selector, owner_kind,
                     owner_name, template_hash, class_id, labels, created, source, line, batch_id, pod_class_id)
VALUES(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
