-- kplan plan (planner/snapshot_load.c): the namespaces' labels, but for
-- kubernetes.io/metadata.name, which the loader sets on every namespace.
SELECT n.name, l.key, l.value FROM namespace n JOIN namespace_label l ON l.namespace_id = n.id
 WHERE l.key <> 'kubernetes.io/metadata.name'
