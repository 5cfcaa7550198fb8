-- what-if (planner/whatif_nodes.c): 1 when an imported node is named ?2
SELECT count(*) FROM main.node WHERE name = ?2
