-- what-if (planner/whatif_nodes.c, whatif_mode.c): the pods option ?1 took
-- off their nodes are pending
UPDATE temp.pod SET node_name = NULL WHERE id IN (SELECT pod_id FROM temp.kp_whatif_moved
WHERE seq = ?1)
