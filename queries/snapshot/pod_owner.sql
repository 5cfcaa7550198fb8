-- kplan plan (planner/snapshot_load.c): each pod's controller among those of
-- owner_selectors.sql: by owner reference, or a Deployment's generated pods by
-- workload_id.
SELECT p.id, w.id FROM pod p JOIN workload w ON w.kind = p.owner_kind AND w.namespace = p.namespace
 AND w.name = p.owner_name WHERE p.owner_kind IN ('ReplicaSet','StatefulSet','ReplicationController')
UNION ALL SELECT p.id, w.id FROM pod p JOIN workload w ON w.id = p.workload_id
 WHERE w.kind = 'Deployment'
