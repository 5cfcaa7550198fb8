-- pdb-status.sql — every PodDisruptionBudget: the pods it covers and the disruptions it
-- allows, before and after the latest plan.
--
-- Answers: how much room does each budget leave for voluntary disruptions (drains,
--          preemption), and did the plan use it up?  status.disruptionsAllowed when the
--          object had a status; otherwise computed as the disruption controller does
--          (percentages of the matching pods, rounded up), with kplan_selector_match.
-- Run:     kplan query cluster.db - < queries/cookbook/pdb-status.sql
-- Columns: namespace, pdb, min_available, max_unavailable, pods_before, allowed_before,
--          pods_after, allowed_after, evictions (by the latest plan), violated
WITH r AS (SELECT max(id) AS id FROM run),
labels AS (SELECT p.id, p.namespace, p.node_name, p.terminating, p.phase,
                  (SELECT json_group_object(key, value) FROM pod_label l WHERE l.pod_id = p.id) AS labels
           FROM pod p),
counts AS (
  SELECT b.*,
         (SELECT count(*) FROM labels x WHERE x.namespace = b.namespace AND x.node_name IS NOT NULL AND NOT x.terminating
            AND x.phase NOT IN ('Succeeded', 'Failed') AND kplan_selector_match(b.selector, x.labels)) AS before_n,
         (SELECT count(*) FROM labels x JOIN placement pl ON pl.pod_id = x.id AND pl.run_id = (SELECT id FROM r)
          WHERE x.namespace = b.namespace AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL
            AND NOT x.terminating AND kplan_selector_match(b.selector, x.labels)) AS after_n
  FROM pdb b),
v AS (SELECT id, 'before' AS which, before_n AS n FROM counts
      UNION ALL SELECT id, 'after', after_n FROM counts),
allow AS (
  SELECT v.id, v.which,
         CASE WHEN b.min_available LIKE '%\%%' ESCAPE '\' THEN
                   v.n - ((v.n * CAST(rtrim(b.min_available, '%') AS INTEGER) + 99) / 100)
              WHEN b.min_available IS NOT NULL THEN v.n - CAST(b.min_available AS INTEGER)
              WHEN b.max_unavailable LIKE '%\%%' ESCAPE '\' THEN
                   ((v.n * CAST(rtrim(b.max_unavailable, '%') AS INTEGER) + 99) / 100)
              ELSE CAST(b.max_unavailable AS INTEGER) END AS computed
  FROM v JOIN pdb b ON b.id = v.id)
SELECT a.namespace, a.name AS pdb, a.min_available, a.max_unavailable,
       a.before_n AS pods_before,
       max(0, CASE WHEN a.has_status AND a.disruptions_allowed IS NOT NULL THEN a.disruptions_allowed
                   ELSE (SELECT computed FROM allow b WHERE b.id = a.id AND b.which = 'before') END) AS allowed_before,
       a.after_n AS pods_after,
       max(0, (SELECT computed FROM allow b WHERE b.id = a.id AND b.which = 'after')) AS allowed_after,
       (SELECT count(*) FROM eviction e, json_each(COALESCE(e.pdbs, '[]')) j
        WHERE e.run_id = (SELECT id FROM r) AND j.value IN (a.name, a.namespace || '/' || a.name)) AS evictions,
       (SELECT count(*) FROM eviction e, json_each(COALESCE(e.pdbs, '[]')) j
        WHERE e.run_id = (SELECT id FROM r) AND e.pdb_violated AND j.value IN (a.name, a.namespace || '/' || a.name)) AS violated
FROM counts a
ORDER BY a.namespace, a.name;
