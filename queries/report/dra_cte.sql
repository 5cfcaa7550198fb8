-- kplan report, devices: what the devices sections share (not a statement of
-- its own: reports/model.c puts it after dra_allocation_cte.sql or
-- dra_allocation_none.sql, and before dra_summary.sql, dra_devices.sql,
-- dra_allocations.sql and dra_unallocated.sql, so the summary counts the
-- very rows the tables list).  ?1 the run.
--
-- gen: per pool (resource_slice driver, pool) its newest generation (the
--   highest pool_generation: the only one kube's allocator reads), the slices
--   it says it has (pool_slice_count, the highest of its slices) and has.
-- dev: the slice_device rows of those slices, where they can be used: the
--   slice's node_name, all_nodes or node_selector, or with
--   per_device_node_selection the device's own.
-- sel_txt: a node selector (JSON terms) written as its terms, as the volume
--   sections write node affinity; not evaluated against the nodes.
-- used_before: the devices of the claims allocated in the input
--   (resource_claim.allocated, resource_claim_result), admin access left out.
-- use_flags: per device (driver, pool, name) whether used_before or the
--   run's alloc (admin access left out) names it.
-- dev_use: each device with its row's node ('(all nodes)',
--   '(network-attached)' for the two kinds not tied to a node), reach, and
--   whether it is in use before the run (used_before) or taken by the run
--   (alloc, admin access left out).
-- devrows: per node, driver, pool and reach: devices, in use, free.
-- unalloc: per unschedulable pod of the run (placement) and claim it names
--   (pod_resource_claim.claim) that is allocated neither in the input nor by
--   the run: what is wrong with it, and the pod's reason.
gen AS MATERIALIZED (
  SELECT driver, pool, g, max(CASE WHEN pool_generation = g THEN pool_slice_count END) AS want,
         sum(pool_generation = g) AS have
  FROM (SELECT driver, pool, pool_generation, pool_slice_count,
               max(pool_generation) OVER (PARTITION BY driver, pool) AS g FROM resource_slice)
  GROUP BY driver, pool),
dev AS MATERIALIZED (
  SELECT d.id, s.driver, s.pool, d.name AS device,
         CASE WHEN s.per_device_node_selection THEN d.node_name ELSE s.node_name END AS node_name,
         CASE WHEN s.per_device_node_selection THEN d.all_nodes ELSE s.all_nodes END AS all_nodes,
         CASE WHEN s.per_device_node_selection THEN d.node_selector ELSE s.node_selector END AS selector
  FROM resource_slice s JOIN gen ON gen.driver = s.driver AND gen.pool = s.pool AND gen.g = s.pool_generation
  JOIN slice_device d ON d.slice_id = s.id),
sel_req AS (
  SELECT x.selector, t.key AS term, f.f, r.key AS k, json_extract(r.value, '$[0]') AS key,
         json_extract(r.value, '$[1]') AS op, (SELECT group_concat(value, ', ') FROM json_each(r.value, '$[2]')) AS vals
  FROM (SELECT DISTINCT selector FROM dev WHERE node_name IS NULL AND NOT all_nodes AND selector IS NOT NULL) x,
       json_each(CASE WHEN json_valid(x.selector) THEN x.selector END) t,
       (SELECT 0 AS f, '$.matchExpressions' AS path UNION ALL SELECT 1, '$.matchFields') f,
       json_each(t.value, f.path) r
  WHERE json_type(t.value) = 'object'),
sel_txt AS (
  SELECT selector, group_concat(txt, ' or ') AS txt FROM (
    SELECT selector, term, group_concat(txt, ' and ') AS txt FROM (
      SELECT selector, term,
             CASE op WHEN 'In' THEN key || ' in (' || vals || ')' WHEN 'NotIn' THEN key || ' notin (' || vals || ')'
                     WHEN 'Exists' THEN key || ' exists' WHEN 'DoesNotExist' THEN key || ' does not exist'
                     WHEN 'Gt' THEN key || ' > ' || vals WHEN 'Lt' THEN key || ' < ' || vals
                     ELSE key || ' ' || op || ' (' || COALESCE(vals, '') || ')' END AS txt
      FROM sel_req ORDER BY selector, term, f, k)
    GROUP BY selector, term ORDER BY selector, term)
  GROUP BY selector),
used_before AS MATERIALIZED (
  SELECT r.claim_id, r.driver, r.pool, r.device
  FROM resource_claim_result r JOIN resource_claim c ON c.id = r.claim_id
  WHERE c.allocated AND NOT r.admin_access),
use_flags AS MATERIALIZED (
  SELECT driver, pool, device, max(src = 0) AS before, max(src = 1) AS run FROM (
    SELECT driver, pool, device, 0 AS src FROM used_before
    UNION ALL SELECT driver, pool, device, 1 FROM alloc WHERE NOT admin_access)
  GROUP BY driver, pool, device),
dev_use AS MATERIALIZED (
  SELECT v.driver, v.pool, v.device,
         CASE WHEN v.node_name IS NOT NULL THEN v.node_name WHEN v.all_nodes THEN '(all nodes)'
              ELSE '(network-attached)' END AS node,
         CASE WHEN v.node_name IS NOT NULL THEN 'node-local' WHEN v.all_nodes THEN 'all nodes'
              ELSE 'node selector, not evaluated: ' || COALESCE(st.txt, '(none)') END AS reach,
         CASE WHEN v.node_name IS NOT NULL THEN 0 WHEN v.all_nodes THEN 1 ELSE 2 END AS ord,
         COALESCE(u.before, 0) AS before, COALESCE(u.run, 0) AS run
  FROM dev v LEFT JOIN sel_txt st ON st.selector = v.selector
  LEFT JOIN use_flags u ON u.driver = v.driver AND u.pool = v.pool AND u.device = v.device),
devrows AS MATERIALIZED (
  SELECT x.node, x.driver, x.pool, x.reach, min(x.ord) AS ord, count(*) AS devices, sum(x.before) AS in_use_before,
         sum(x.run) AS in_use_run, sum(x.before OR x.run) AS in_use, count(*) - sum(x.before OR x.run) AS free,
         g.g AS generation,
         CASE WHEN g.have >= g.want THEN 'complete' ELSE 'incomplete: ' || g.have || ' of ' || g.want || ' slices' END AS pool_status
  FROM dev_use x JOIN gen g ON g.driver = x.driver AND g.pool = x.pool
  GROUP BY x.node, x.driver, x.pool, x.reach),
unalloc AS MATERIALIZED (
  SELECT pl.pod_id, p.namespace || '/' || p.name AS pod, c.name AS pod_claim, c.claim,
         c.claim_from || COALESCE(' (template ' || c.template || ')', '') AS claim_from,
         CASE WHEN rc.id IS NULL THEN 'no such ResourceClaim' WHEN rc.deleting THEN 'not allocated, being deleted'
              ELSE 'not allocated' END AS status,
         pl.reason
  FROM placement pl JOIN pod p ON p.id = pl.pod_id JOIN pod_resource_claim c ON c.pod_id = pl.pod_id
  LEFT JOIN resource_claim rc ON rc.namespace = p.namespace AND rc.name = c.claim
  WHERE pl.run_id = ?1 AND pl.action = 'unschedulable' AND c.claim IS NOT NULL
    AND (rc.id IS NULL OR (NOT rc.allocated AND NOT EXISTS (SELECT 1 FROM alloc a WHERE a.claim_id = rc.id))))
