-- kplan import (importers/store_objects.c): a PodDisruptionBudget, new or
-- replacing the one of its namespace and name.
INSERT INTO pdb(namespace, name, api_version, min_available, max_unavailable, selector,
                has_status, disruptions_allowed, current_healthy, desired_healthy, expected_pods,
                disrupted_pods, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,
       ?12, ?13, ?14, ?15)
ON CONFLICT(namespace, name) DO UPDATE SET
    api_version = excluded.api_version, min_available = excluded.min_available,
    max_unavailable = excluded.max_unavailable, selector = excluded.selector,
    has_status = excluded.has_status, disruptions_allowed = excluded.disruptions_allowed,
    current_healthy = excluded.current_healthy, desired_healthy = excluded.desired_healthy,
    expected_pods = excluded.expected_pods, disrupted_pods = excluded.disrupted_pods,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id
