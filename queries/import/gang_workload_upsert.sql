-- kplan import (importers/store_gang.c): a Workload (scheduling.k8s.io),
-- new or replacing the one of its namespace and name; returns its id.
INSERT INTO sched_workload(namespace, name, api_version, controller_kind, controller_name, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
ON CONFLICT(namespace, name) DO UPDATE SET
    api_version = excluded.api_version, controller_kind = excluded.controller_kind,
    controller_name = excluded.controller_name, source = excluded.source, line = excluded.line,
    batch_id = excluded.batch_id
RETURNING id
