-- kplan report, section node_usage: every resource of every node, requested
-- before and after the run, and as percentages of allocatable (after
-- usage_cte.sql).  Resources in reading order: cpu, memory, then by name.
SELECT node, resource, allocatable, rb, ra,
 CASE WHEN allocatable > 0 THEN round(100.0 * rb / allocatable, 1) END,
 CASE WHEN allocatable > 0 THEN round(100.0 * ra / allocatable, 1) END
FROM usage ORDER BY node, resource <> 'cpu', resource <> 'memory', resource
