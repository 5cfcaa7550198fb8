-- what-if (planner/whatif_nodes.c, whatif_scale.c, whatif_fix.c): the labels
-- of the pods option ?1 removed
DELETE FROM temp.pod_label WHERE pod_id IN (SELECT pod_id FROM temp.kp_whatif_pod WHERE seq = ?1
AND change = 'removed')
