-- drain-blockers.sql — which pods stand in the way of draining one node after the latest plan.
--
-- Answers: what would `kubectl drain NODE` refuse or need flags for?
--            - a pod without a controller is deleted for good (drain needs --force);
--            - a DaemonSet pod is not evicted (drain needs --ignore-daemonsets);
--            - a pod covered by a PodDisruptionBudget that has fewer disruptions left than
--              the node holds of its pods blocks the eviction (drain waits forever).
--          Budgets: status.disruptionsAllowed when imported, else computed as the disruption
--          controller does (matching running pods minus minAvailable, or maxUnavailable minus
--          the missing ones; percentages of the matching pods rounded up), over the state after
--          the plan.  Pods that can just be evicted are listed too, with blocker NULL.
-- Run:     kplan query cluster.db - < queries/cookbook/drain-blockers.sql
--          Name the node in the `params` line.
-- Columns: namespace, pod, owner, blocker (no-controller, daemonset, pdb), detail
WITH params(node) AS (SELECT 'gen-a-2'),
r AS (SELECT max(id) AS id FROM run),
live AS (   -- pods running somewhere after the plan
  SELECT p.id, p.namespace, p.name, p.owner_kind, p.owner_name, pl.node_id,
         (SELECT json_group_object(key, value) FROM pod_label l WHERE l.pod_id = p.id) AS labels
  FROM placement pl JOIN r ON pl.run_id = r.id JOIN pod p ON p.id = pl.pod_id
  WHERE pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL AND NOT p.terminating),
budget AS (
  SELECT b.id, b.namespace, b.name, b.has_status, b.disruptions_allowed, b.min_available, b.max_unavailable,
         (SELECT count(*) FROM live WHERE live.namespace = b.namespace
                                      AND kplan_selector_match(b.selector, live.labels)) AS matching
  FROM pdb b),
allowed AS (
  SELECT id, namespace, name, matching,
         CASE WHEN has_status AND disruptions_allowed IS NOT NULL THEN disruptions_allowed
              WHEN min_available LIKE '%\%%' ESCAPE '\' THEN
                   matching - ((matching * CAST(rtrim(min_available, '%') AS INTEGER) + 99) / 100)
              WHEN min_available IS NOT NULL THEN matching - CAST(min_available AS INTEGER)
              WHEN max_unavailable LIKE '%\%%' ESCAPE '\' THEN
                   ((matching * CAST(rtrim(max_unavailable, '%') AS INTEGER) + 99) / 100)
              ELSE CAST(max_unavailable AS INTEGER) END AS allowed
  FROM budget),
on_node AS (SELECT live.* FROM live JOIN node n ON n.id = live.node_id, params WHERE n.name = params.node),
pdb_hits AS (   -- per budget: how many of its pods the node holds
  SELECT a.id, a.name, max(a.allowed, 0) AS allowed, count(*) AS here
  FROM allowed a JOIN on_node o ON o.namespace = a.namespace
  WHERE kplan_selector_match((SELECT selector FROM pdb WHERE pdb.id = a.id), o.labels)
  GROUP BY a.id)
SELECT o.namespace, o.name AS pod, COALESCE(o.owner_kind || '/' || o.owner_name, '-') AS owner,
       CASE WHEN o.owner_kind IS NULL THEN 'no-controller'
            WHEN o.owner_kind = 'DaemonSet' THEN 'daemonset'
            WHEN EXISTS (SELECT 1 FROM pdb_hits h JOIN pdb b ON b.id = h.id
                         WHERE b.namespace = o.namespace AND kplan_selector_match(b.selector, o.labels)
                           AND h.here > h.allowed) THEN 'pdb' END AS blocker,
       (SELECT group_concat('pdb ' || h.name || ' allows ' || h.allowed || ' / node has ' || h.here, '; ')
        FROM pdb_hits h JOIN pdb b ON b.id = h.id
        WHERE b.namespace = o.namespace AND kplan_selector_match(b.selector, o.labels)) AS detail
FROM on_node o
ORDER BY blocker IS NULL, blocker, o.namespace, o.name;
