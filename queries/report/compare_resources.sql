-- kplan report --compare, section resource_delta: per resource over the
-- cluster, requested after run A (?1) and after run B (?2), the difference
-- B - A (after usage_cte.sql).
SELECT resource, sum(allocatable), sum(ra), sum(rc), sum(rc) - sum(ra),
 CASE WHEN sum(allocatable) > 0 THEN round(100.0 * sum(ra) / sum(allocatable), 1) END,
 CASE WHEN sum(allocatable) > 0 THEN round(100.0 * sum(rc) / sum(allocatable), 1) END
FROM usage GROUP BY resource ORDER BY resource <> 'cpu', resource <> 'memory', resource
