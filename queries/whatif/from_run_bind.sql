-- what-if --from-run (planner/whatif_mode.c): the pods run ?1 bound or moved
-- are bound where it put them (a node removed since: pending)
UPDATE temp.pod SET node_name = (SELECT n.name FROM placement pl JOIN main.node n ON n.id = pl.node_id
	WHERE pl.run_id = ?1 AND pl.pod_id = temp.pod.id) WHERE id IN (SELECT pod_id FROM placement
	WHERE run_id = ?1 AND action IN ('bind', 'move'))
