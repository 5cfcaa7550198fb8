-- what-if relax CLASS:node-selector:KEY (planner/whatif_fix.c): class ?1's
-- nodeSelector key ?2 dropped
DELETE FROM temp.class_node_selector WHERE class_id = ?1 AND key = ?2
