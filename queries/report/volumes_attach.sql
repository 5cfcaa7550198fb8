-- kplan report, section volumes_attach (after volumes_cte.sql): the (node,
-- driver) pairs at, over or one below their CSI attach limit after the run,
-- the fullest first: attached unique volumes (attach), the limit
-- (csi_node.allocatable), free = limit - attached, and the volumes.
SELECT node, driver, attached, lim, lim - attached,
       CASE WHEN attached > lim THEN 'over the limit' WHEN attached = lim THEN 'at the limit' ELSE 'one below the limit' END,
       COALESCE(volumes, '')
FROM attach WHERE attached >= lim - 1
ORDER BY lim - attached, node, driver
