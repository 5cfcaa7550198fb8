-- kplan report, section capacity_quality: the quality certificates of the
-- answers capacity.sql shows (capacity_quality).
SELECT capacity_id, pool, nodes, nodes_used, pods, bound, bound_by, gap_pct FROM capacity_quality
WHERE capacity_id IN (SELECT id FROM capacity_run ORDER BY id DESC LIMIT 20)
ORDER BY capacity_id DESC, pool = '(none)', pool
