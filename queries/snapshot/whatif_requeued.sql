-- What-if move-pods (planner/whatif_fix.c): the pods taken off their nodes
-- and queued as re-created; the table exists only while a scenario is in place.
SELECT pod_id FROM temp.kp_whatif_requeued
