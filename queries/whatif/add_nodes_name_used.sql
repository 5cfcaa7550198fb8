-- what-if --add-nodes (planner/whatif_add_nodes.c): a row when a node is
-- named ?1, in the scenario or imported
SELECT 1 FROM temp.node WHERE name = ?1 UNION ALL SELECT 1 FROM main.node WHERE name = ?1 LIMIT 1
