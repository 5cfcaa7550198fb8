-- kplan report --compare, section usage_delta: the node resources whose
-- requests differ after run A (?1) and after run B (?2), delta = B - A (after
-- usage_cte.sql).
SELECT node, resource, allocatable, ra, rc, rc - ra,
 CASE WHEN allocatable > 0 THEN round(100.0 * ra / allocatable, 1) END,
 CASE WHEN allocatable > 0 THEN round(100.0 * rc / allocatable, 1) END
FROM usage WHERE ra <> rc ORDER BY node, resource <> 'cpu', resource <> 'memory', resource
