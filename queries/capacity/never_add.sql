-- kplan capacity --nodes-needed (planner/capacity_nodes.c): pod ?1 never fits
-- on a node like the template (never_reset.sql).
INSERT OR IGNORE INTO temp.kp_cap_never(pod_id) VALUES(?1)
