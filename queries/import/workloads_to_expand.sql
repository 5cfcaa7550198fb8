-- kplan import (importers/store_expand.c): the workloads whose pods kplan
-- generates, in id order, with the class their pods get.  A ReplicaSet
-- owned by a Deployment that kplan knows is the Deployment's business.
SELECT w.id, w.kind, w.namespace, w.name, w.replicas, w.template_hash, COALESCE(w.pod_class_id, w.class_id), w.labels,
       w.created, w.source, w.line, w.uid
FROM workload w
WHERE NOT (w.kind = 'ReplicaSet' AND w.owner_kind = 'Deployment' AND EXISTS (SELECT 1 FROM workload d
           WHERE d.kind = 'Deployment' AND d.namespace = w.namespace AND d.name = w.owner_name))
ORDER BY w.id
