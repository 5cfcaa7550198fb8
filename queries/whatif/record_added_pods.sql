-- what-if (planner/whatif_record.c): what run ?1 did with the pods option ?2
-- added: action, pods
SELECT pl.action, count(*) FROM temp.kp_whatif_pod p JOIN placement pl ON pl.run_id = ?1
AND pl.pod_id = p.pod_id WHERE p.seq = ?2 AND p.change = 'added' GROUP BY pl.action
ORDER BY pl.action
