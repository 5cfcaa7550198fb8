-- kplan import (importers/store_objects.c): a PriorityClass, new or replacing
-- the one of its name.
INSERT INTO priority_class(name, value, global_default, preemption_policy, description,
                           source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT(name) DO UPDATE
SET value = excluded.value, global_default = excluded.global_default,
    preemption_policy = excluded.preemption_policy, description = excluded.description,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id
