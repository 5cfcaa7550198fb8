-- kplan import (importers/store_dra.c): a ResourceClaim read from the input,
-- new or replacing the one of its namespace and name (a generated one too: it
-- is then no longer generated); returns its id (for its status rows).
INSERT INTO resource_claim(namespace, name, uid, spec_id, generated, template, pod_claim, owner_kind, owner_name,
                           deleting, allocated, allocation_node_selector, api_version, source, line, batch_id)
VALUES(?1, ?2, ?3, ?4, 0, NULL, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
ON CONFLICT(namespace, name) DO UPDATE SET
    uid = excluded.uid, spec_id = excluded.spec_id, generated = 0, template = NULL,
    pod_claim = excluded.pod_claim, owner_kind = excluded.owner_kind, owner_name = excluded.owner_name,
    deleting = excluded.deleting, allocated = excluded.allocated,
    allocation_node_selector = excluded.allocation_node_selector, api_version = excluded.api_version,
    source = excluded.source, line = excluded.line, batch_id = excluded.batch_id
RETURNING id
