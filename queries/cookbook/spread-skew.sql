-- spread-skew.sql — how evenly each workload is spread over the zones after the latest plan.
--
-- Answers: which workloads are lopsided across zones (topology.kubernetes.io/zone)?
--          Pods are grouped by their controller (owner kind/name; generated pods by their
--          workload); every zone that has a node counts, so a zone without the workload is 0.
--          skew = max - min, the quantity a zone topologySpreadConstraint bounds (this view
--          counts all zones, not only the ones a constraint would consider eligible).
-- Run:     kplan query cluster.db - < queries/cookbook/spread-skew.sql
-- Columns: namespace, workload (Kind/name), pods, per_zone (JSON object zone -> pods), min, max, skew
WITH r AS (SELECT max(id) AS id FROM run),
zones AS (SELECT DISTINCT value AS zone FROM node_label WHERE key = 'topology.kubernetes.io/zone'),
placed AS (
  SELECT p.namespace,
         COALESCE(w.kind || '/' || w.name, p.owner_kind || '/' || p.owner_name) AS workload,
         z.value AS zone
  FROM placement pl JOIN r ON pl.run_id = r.id
  JOIN pod p ON p.id = pl.pod_id
  LEFT JOIN workload w ON w.id = p.workload_id
  JOIN node_label z ON z.node_id = pl.node_id AND z.key = 'topology.kubernetes.io/zone'
  WHERE pl.action IN ('keep', 'bind', 'move') AND COALESCE(w.id, p.owner_kind) IS NOT NULL),
workloads AS (SELECT DISTINCT namespace, workload FROM placed),
grid AS (
  SELECT wl.namespace, wl.workload, zones.zone,
         (SELECT count(*) FROM placed WHERE placed.namespace = wl.namespace AND placed.workload = wl.workload
                                        AND placed.zone = zones.zone) AS pods
  FROM workloads wl CROSS JOIN zones)
SELECT namespace, workload, sum(pods) AS pods, json_group_object(zone, pods) AS per_zone,
       min(pods) AS min, max(pods) AS max, max(pods) - min(pods) AS skew
FROM (SELECT * FROM grid ORDER BY zone)
GROUP BY namespace, workload
ORDER BY skew DESC, namespace, workload;
