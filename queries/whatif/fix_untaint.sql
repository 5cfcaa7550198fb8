-- what-if untaint (planner/whatif_fix.c): the NoSchedule/NoExecute taints ?1
-- (with value ?2 when not NULL) removed from every node
DELETE FROM temp.node_taint WHERE key = ?1 AND (?2 IS NULL OR value = ?2)
AND effect IN ('NoSchedule', 'NoExecute')
