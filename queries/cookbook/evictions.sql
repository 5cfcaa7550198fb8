-- evictions.sql — every eviction of the latest plan, with its PodDisruptionBudget impact.
--
-- Answers: whom did preemption evict, for whom, from where, did it break a budget, and
--          where did the victim end up (move: its controller's replacement found a node;
--          evict: it did not, or the pod had no controller)?
-- Run:     kplan query cluster.db - < queries/cookbook/evictions.sql
-- Columns: seq, victim, victim_priority, node, preemptor, preemptor_priority, pdb_violated,
--          pdbs (JSON array of the budgets it counted against), outcome, now_on
SELECT e.seq, v.namespace || '/' || v.name AS victim, vp.priority AS victim_priority,
       n.name AS node, p.namespace || '/' || p.name AS preemptor, pp.priority AS preemptor_priority,
       e.pdb_violated, e.pdbs, pl.action AS outcome, now.name AS now_on
FROM eviction e
JOIN pod v ON v.id = e.pod_id JOIN pod_priority vp ON vp.pod_id = v.id
JOIN pod p ON p.id = e.preemptor_pod_id JOIN pod_priority pp ON pp.pod_id = p.id
JOIN node n ON n.id = e.node_id
LEFT JOIN placement pl ON pl.run_id = e.run_id AND pl.pod_id = e.pod_id
LEFT JOIN node now ON now.id = pl.node_id
WHERE e.run_id = (SELECT max(id) FROM run)
ORDER BY e.seq;
