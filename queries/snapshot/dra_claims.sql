-- ResourceClaims, by namespace and name.
SELECT id, namespace, name, spec_id, generated, owner_kind, owner_name, deleting, allocated, allocation_node_selector
FROM resource_claim ORDER BY namespace, name;
