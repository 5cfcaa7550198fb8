-- kplan report, section resources: node_usage.sql summed over the cluster, per
-- resource (after usage_cte.sql).
SELECT resource, sum(allocatable > 0), sum(allocatable), sum(rb), sum(ra),
 CASE WHEN sum(allocatable) > 0 THEN round(100.0 * sum(rb) / sum(allocatable), 1) END,
 CASE WHEN sum(allocatable) > 0 THEN round(100.0 * sum(ra) / sum(allocatable), 1) END
FROM usage GROUP BY resource ORDER BY resource <> 'cpu', resource <> 'memory', resource
