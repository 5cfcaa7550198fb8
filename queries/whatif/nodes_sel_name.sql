-- what-if (planner/whatif_nodes.c): select the imported node named ?2, when
-- it is still there (added nodes have negative ids)
INSERT INTO temp.kp_whatif_sel(node_id, name) SELECT id, name FROM temp.node
WHERE name = ?2 AND id > 0
