-- kplan report, section volume_decisions (after volumes_cte.sql): the run's
-- volume_decision rows in order: the claim (in the pod's namespace), bind
-- (pv: the PersistentVolume chosen) or provision (pv NULL), the pod's node.
SELECT d.seq, COALESCE(p.namespace || '/' || p.name, '#' || d.pod_id), d.claim, d.action, d.pv,
       COALESCE(n.name, '#' || d.node_id)
FROM decision d LEFT JOIN pod p ON p.id = d.pod_id LEFT JOIN node n ON n.id = d.node_id
ORDER BY d.seq
