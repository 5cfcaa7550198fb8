-- CSINodes: one row per object (drivers NULL when it lists none), with its
-- migrated in-tree plugins; drivers with their attach limits.
SELECT i.node_name, i.migrated_plugins, d.driver, d.allocatable
FROM csi_node_info i
LEFT JOIN csi_node d ON d.node_name = i.node_name
ORDER BY i.node_name, d.driver;
