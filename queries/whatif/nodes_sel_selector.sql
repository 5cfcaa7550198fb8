-- what-if (planner/whatif_nodes.c): select the imported nodes still there
-- whose labels meet every requirement of ?2, a JSON array of
-- [key, operator, [values]] (kubectl -l, parsed by whatif_parse.c)
INSERT INTO temp.kp_whatif_sel(node_id, name) SELECT n.id, n.name FROM temp.node n WHERE n.id > 0
AND NOT EXISTS (SELECT 1 FROM json_each(?2) r WHERE NOT COALESCE(kplan_match_expression(
	json_extract(r.value, '$[1]'), (SELECT l.value FROM temp.node_label l WHERE l.node_id = n.id
	AND l.key = json_extract(r.value, '$[0]')), json_extract(r.value, '$[2]')), 0))
