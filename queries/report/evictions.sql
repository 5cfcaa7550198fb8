-- kplan report, section evictions: the run's preemptions in order, each
-- victim's and preemptor's priority, the PDBs it violates and what became of
-- the victim (outcome: the victim's action; now_on: its node).  ?1 the run.
SELECT e.seq, COALESCE(v.namespace || '/' || v.name, '#' || e.pod_id),
 (SELECT priority FROM pod_priority WHERE pod_id = e.pod_id), COALESCE(n.name, '#' || e.node_id),
 COALESCE(pp.namespace || '/' || pp.name, '#' || e.preemptor_pod_id),
 (SELECT priority FROM pod_priority WHERE pod_id = e.preemptor_pod_id), e.pdb_violated,
 CASE WHEN json_valid(e.pdbs) THEN COALESCE((SELECT group_concat(value, ', ') FROM json_each(e.pdbs)), '')
      ELSE COALESCE(e.pdbs, '') END,
 pl.action, nn.name
FROM eviction e LEFT JOIN pod v ON v.id = e.pod_id LEFT JOIN pod pp ON pp.id = e.preemptor_pod_id
LEFT JOIN node n ON n.id = e.node_id LEFT JOIN placement pl ON pl.run_id = e.run_id AND pl.pod_id = e.pod_id
LEFT JOIN node nn ON nn.id = pl.node_id WHERE e.run_id = ?1 ORDER BY e.seq
