-- what-if --add-nodes (planner/whatif_add_nodes.c): DaemonSet class ?1 gets
-- no pod on added node ?2 (a static filter failed)
INSERT OR IGNORE INTO temp.kp_whatif_dsfail(class_id, node_id) VALUES(?1, ?2)
