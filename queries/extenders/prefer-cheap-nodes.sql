-- A score extender: prefer nodes with a lower hourly price (label
-- example.com/hourly-cost, in cents): the cheapest node scores 100, the most
-- expensive 0; nodes without the label score 0.  Returns (pod, node, 0..100).
--   pluginConfig:
--   - name: KplanSQLExtenders
--     args:
--       scores: [{file: prefer-cheap-nodes.sql, weight: 2}]
WITH cost AS (
  SELECT node_id, CAST(value AS INTEGER) AS c FROM node_label WHERE key = 'example.com/hourly-cost'),
span AS (SELECT min(c) AS lo, max(c) AS hi FROM cost)
SELECT p.pod_id, cost.node_id,
       CASE WHEN span.hi = span.lo THEN 100 ELSE (100 * (span.hi - cost.c)) / (span.hi - span.lo) END
FROM temp.kp_pending p CROSS JOIN cost CROSS JOIN span;
