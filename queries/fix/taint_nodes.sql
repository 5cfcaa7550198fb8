-- kplan fix (planner/fix_relax.c): the effects of the NoSchedule/NoExecute
-- taint ?1=?2 and the nodes that have it (by node id).
SELECT group_concat(DISTINCT x.effect), group_concat(DISTINCT n.name)
FROM (SELECT * FROM node_taint ORDER BY node_id) x JOIN node n ON n.id = x.node_id
WHERE x.key = ?1 AND x.value = ?2 AND x.effect IN ('NoSchedule', 'NoExecute')
