-- what-if (planner/whatif_record.c): the nodes run ?1's scenario changed
INSERT INTO run_node(run_id, node_id, name, change, seq) SELECT ?1, node_id, name, change, seq
FROM temp.kp_whatif_node
