-- what-if --add-nodes (planner/whatif_add_nodes.c): the nodes option ?1
-- added, for messages
SELECT name FROM temp.kp_whatif_node WHERE seq = ?1 AND change = 'added'
ORDER BY node_id
