-- zone-utilisation.sql — cpu and memory requested per zone, before and after the latest plan.
--
-- Answers: how full is each zone (topology.kubernetes.io/zone; nodes without the label are
--          "(none)") and how much does the plan add?
-- Run:     kplan query cluster.db - < queries/cookbook/zone-utilisation.sql
-- Columns: zone, nodes, cpu_m (allocatable), cpu_before_m, cpu_after_m, cpu_pct (after),
--          memory, memory_before, memory_after, memory_pct (after)
WITH z AS (
  SELECT n.name AS node, COALESCE(l.value, '(none)') AS zone
  FROM node n LEFT JOIN node_label l ON l.node_id = n.id AND l.key = 'topology.kubernetes.io/zone')
SELECT z.zone, count(DISTINCT z.node) AS nodes,
       sum(CASE WHEN u.resource = 'cpu' THEN u.allocatable END) AS cpu_m,
       sum(CASE WHEN u.resource = 'cpu' THEN u.requested_before END) AS cpu_before_m,
       sum(CASE WHEN u.resource = 'cpu' THEN u.requested_after END) AS cpu_after_m,
       round(100.0 * sum(CASE WHEN u.resource = 'cpu' THEN u.requested_after END)
             / sum(CASE WHEN u.resource = 'cpu' THEN u.allocatable END), 1) AS cpu_pct,
       sum(CASE WHEN u.resource = 'memory' THEN u.allocatable END) AS memory,
       sum(CASE WHEN u.resource = 'memory' THEN u.requested_before END) AS memory_before,
       sum(CASE WHEN u.resource = 'memory' THEN u.requested_after END) AS memory_after,
       round(100.0 * sum(CASE WHEN u.resource = 'memory' THEN u.requested_after END)
             / sum(CASE WHEN u.resource = 'memory' THEN u.allocatable END), 1) AS memory_pct
FROM z JOIN node_usage u ON u.node = z.node
GROUP BY z.zone
ORDER BY z.zone;
