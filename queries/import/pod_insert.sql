-- kplan import (importers/store_objects.c): a new pod (?1 is the id of
-- pod_update, unused here: both statements bind the same numbers).
INSERT INTO pod(namespace, name, uid, class_id, node_name, phase, created, start_time,
                terminating, nominated_node, owner_kind, owner_name, owner_uid, workload_id, source, line,
                batch_id, daemon_node)
VALUES(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
       ?18, ?19)
