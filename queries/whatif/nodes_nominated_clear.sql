-- what-if (planner/whatif_nodes.c): no pod is nominated to a removed node
UPDATE temp.pod SET nominated_node = NULL WHERE nominated_node IN (SELECT name FROM temp.kp_whatif_sel)
