-- kplan report, section zones: node_usage.sql summed per zone (label
-- topology.kubernetes.io/zone; "(none)" last) and resource (after
-- usage_cte.sql).
SELECT zone, resource, sum(allocatable > 0), sum(allocatable), sum(rb), sum(ra),
 CASE WHEN sum(allocatable) > 0 THEN round(100.0 * sum(rb) / sum(allocatable), 1) END,
 CASE WHEN sum(allocatable) > 0 THEN round(100.0 * sum(ra) / sum(allocatable), 1) END
FROM usage GROUP BY zone, resource ORDER BY zone = '(none)', zone, resource <> 'cpu', resource <> 'memory', resource
