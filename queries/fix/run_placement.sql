-- kplan fix (planner/fix_evict.c): what run ?1 did with each imported pod
-- (keep, bind, move, evict, unschedulable) and where.
SELECT pod_id, action, node_id FROM placement WHERE run_id = ?1 AND pod_id > 0
