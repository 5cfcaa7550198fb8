-- kplan capacity --nodes-needed (planner/capacity_nodes.c): the pods that never
-- fit on a node like the template, empty; lower_bound.sql leaves them out.
CREATE TEMP TABLE IF NOT EXISTS kp_cap_never(pod_id INTEGER PRIMARY KEY);
DELETE FROM temp.kp_cap_never
