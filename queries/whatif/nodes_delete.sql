-- what-if (planner/whatif_nodes.c): the removed nodes, with their resources,
-- labels, taints and images
DELETE FROM temp.node_resource WHERE node_id IN (SELECT node_id FROM temp.kp_whatif_sel);
DELETE FROM temp.node_label WHERE node_id IN (SELECT node_id FROM temp.kp_whatif_sel);
DELETE FROM temp.node_taint WHERE node_id IN (SELECT node_id FROM temp.kp_whatif_sel);
DELETE FROM temp.node_image WHERE node_id IN (SELECT node_id FROM temp.kp_whatif_sel);
DELETE FROM temp.node WHERE id IN (SELECT node_id FROM temp.kp_whatif_sel);
