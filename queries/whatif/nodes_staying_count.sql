-- what-if (planner/whatif_nodes.c): the pods a drain leaves on the selected
-- nodes: DaemonSet and static pods, not finished or terminating
SELECT count(*) FROM temp.pod p WHERE p.node_name IN (SELECT name FROM temp.kp_whatif_sel)
AND (COALESCE(p.owner_kind, '') IN ('DaemonSet', 'Node') OR p.daemon_node IS NOT NULL)
AND NOT (p.phase IN ('Succeeded', 'Failed') OR p.terminating)
