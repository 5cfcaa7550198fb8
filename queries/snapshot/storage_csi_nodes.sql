-- CSINodes: one row per object (driver NULL when it lists none), with its
-- migrated in-tree plugins; drivers with their attach limits.  A CSINode
-- imported before csi_node_info existed is known by its csi_node rows.
SELECT n.node_name, COALESCE(i.migrated_plugins, ''), d.driver, d.allocatable
FROM (SELECT node_name FROM csi_node_info UNION SELECT node_name FROM csi_node) n
LEFT JOIN csi_node_info i ON i.node_name = n.node_name
LEFT JOIN csi_node d ON d.node_name = n.node_name
ORDER BY n.node_name, d.driver;
