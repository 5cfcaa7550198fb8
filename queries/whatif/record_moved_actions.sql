-- what-if (planner/whatif_record.c): what run ?1 did with the pods option ?2
-- made pending: action, pods
SELECT pl.action, count(*) FROM temp.kp_whatif_moved m JOIN placement pl ON pl.run_id = ?1
AND pl.pod_id = m.pod_id WHERE m.seq = ?2 GROUP BY pl.action ORDER BY pl.action
