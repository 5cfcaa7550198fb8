-- workload-status.sql — each imported workload: desired pods against what the latest plan runs.
--
-- Answers: which Deployments, StatefulSets, Jobs and DaemonSets end up short of pods?
--          Pods are counted through pod.workload_id (generated pods) and the controller
--          owner (live pods; a Deployment's through its ReplicaSets named NAME-HASH).
-- Run:     kplan query cluster.db - < queries/cookbook/workload-status.sql
-- Columns: kind, namespace, name, desired (replicas; DaemonSet: its pods), running, placed_now
--          (bind or move in the latest plan), unplaced
WITH r AS (SELECT max(id) AS id FROM run),
member AS (
  SELECT w.id AS workload_id, p.id AS pod_id
  FROM workload w JOIN pod p ON p.namespace = w.namespace
   AND (p.workload_id = w.id
        OR (p.owner_kind = w.kind AND p.owner_name = w.name)
        OR (w.kind = 'Deployment' AND p.owner_kind = 'ReplicaSet' AND p.owner_name LIKE w.name || '-%'
            AND p.owner_name NOT LIKE w.name || '-%-%'))
  WHERE p.phase NOT IN ('Succeeded', 'Failed'))
SELECT w.kind, w.namespace, w.name,
       COALESCE(w.replicas, (SELECT count(*) FROM member m WHERE m.workload_id = w.id)) AS desired,
       (SELECT count(*) FROM member m JOIN placement pl ON pl.pod_id = m.pod_id AND pl.run_id = (SELECT id FROM r)
        WHERE m.workload_id = w.id AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL) AS running,
       (SELECT count(*) FROM member m JOIN placement pl ON pl.pod_id = m.pod_id AND pl.run_id = (SELECT id FROM r)
        WHERE m.workload_id = w.id AND pl.action IN ('bind', 'move')) AS placed_now,
       (SELECT count(*) FROM member m JOIN placement pl ON pl.pod_id = m.pod_id AND pl.run_id = (SELECT id FROM r)
        WHERE m.workload_id = w.id AND pl.action IN ('unschedulable', 'evict')) AS unplaced
FROM workload w
ORDER BY unplaced DESC, w.namespace, w.kind, w.name;
