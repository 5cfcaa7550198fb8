-- what-if relax CLASS:node-affinity:all (planner/whatif_fix.c): class ?1's
-- required terms dropped
DELETE FROM temp.class_node_term WHERE class_id = ?1 AND required = 1
