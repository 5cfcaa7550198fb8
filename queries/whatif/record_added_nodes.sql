-- what-if (planner/whatif_record.c): the pods run ?1 placed on the nodes
-- option ?2 added, and on how many of them
SELECT count(*), count(DISTINCT pl.node_id) FROM placement pl JOIN temp.kp_whatif_node n
ON n.node_id = pl.node_id AND n.seq = ?2 AND n.change = 'added' WHERE pl.run_id = ?1
AND pl.action IN ('keep', 'bind', 'move')
