-- what-if (planner/whatif_nodes.c): how many selected nodes were cordoned
-- already
SELECT count(*) FROM temp.node WHERE unschedulable AND id IN (SELECT node_id FROM
temp.kp_whatif_sel)
