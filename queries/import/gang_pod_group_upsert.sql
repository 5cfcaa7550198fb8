-- kplan import (importers/store_gang.c): a PodGroup, new or replacing the
-- one of its namespace and name.
INSERT INTO pod_group(namespace, name, api_version, workload_name, template_name, policy, min_count,
                      topology_key, priority_class, priority, disruption_mode, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
ON CONFLICT(namespace, name) DO UPDATE SET
    api_version = excluded.api_version, workload_name = excluded.workload_name,
    template_name = excluded.template_name, policy = excluded.policy, min_count = excluded.min_count,
    topology_key = excluded.topology_key, priority_class = excluded.priority_class,
    priority = excluded.priority, disruption_mode = excluded.disruption_mode,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id
