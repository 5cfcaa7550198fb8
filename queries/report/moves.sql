-- kplan report, section moves: the pods the run moves, from and to, and the
-- preemptor that made the move (the victim's latest eviction).  ?1 the run.
SELECT pl.seq, p.namespace, COALESCE(p.name, '#' || pl.pod_id), f.name, n.name,
 (SELECT pp.namespace || '/' || pp.name FROM eviction e JOIN pod pp ON pp.id = e.preemptor_pod_id
  WHERE e.run_id = pl.run_id AND e.pod_id = pl.pod_id ORDER BY e.seq DESC LIMIT 1)
FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id LEFT JOIN node f ON f.id = pl.from_node_id
LEFT JOIN node n ON n.id = pl.node_id WHERE pl.run_id = ?1 AND pl.action = 'move' ORDER BY pl.seq, 2, 3
