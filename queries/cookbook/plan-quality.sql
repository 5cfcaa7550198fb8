-- plan-quality.sql — how far the latest plan is from the fewest nodes its pods could need, per node pool.
--
-- Answers: could these pods run on fewer nodes?  Per pool (label
--          node.kubernetes.io/instance-type), the nodes the plan uses for pods other than
--          DaemonSet and static pods, a lower bound on the nodes those pods need (no plan can
--          do with fewer), the gap between the two, and the cpu and memory stranded on the
--          used nodes (free, but next to an exhausted resource).  docs/planning.md, "Plan quality".
-- Run:     kplan query cluster.db - < queries/cookbook/plan-quality.sql
-- Columns: pool, nodes, used, bound, bound_by (requests:RESOURCE, large-pods:RESOURCE,
--          anti-affinity:NAMESPACE/NAME or one-pod), gap_pct, stranded_cpu_m,
--          stranded_memory_gib (2 decimals), summary ("5 nodes used, bound 4, gap 25.0 %")
WITH r AS (SELECT max(id) AS id FROM run)
SELECT q.pool, q.nodes, q.nodes_used AS used, q.bound, q.bound_by, q.gap_pct,
       (SELECT s.stranded FROM plan_stranded s WHERE s.run_id = q.run_id AND s.pool = q.pool
          AND s.resource = 'cpu') AS stranded_cpu_m,
       (SELECT round(s.stranded / 1073741824.0, 2) FROM plan_stranded s WHERE s.run_id = q.run_id
          AND s.pool = q.pool AND s.resource = 'memory') AS stranded_memory_gib,
       q.nodes_used || CASE WHEN q.nodes_used = 1 THEN ' node' ELSE ' nodes' END || ' used, bound ' || q.bound ||
         CASE WHEN q.gap_pct IS NULL THEN '' ELSE ', gap ' || printf('%.1f', q.gap_pct) || ' %' END AS summary
FROM plan_quality q JOIN r ON q.run_id = r.id
ORDER BY q.gap_pct IS NULL, q.gap_pct DESC, q.pool;
