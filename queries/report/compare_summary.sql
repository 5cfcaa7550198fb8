-- kplan report --compare, section summary: one row, each column a (key,
-- value) pair.  ?1 run A, ?2 run B.
WITH u AS (SELECT pod_id FROM placement WHERE run_id IN (?1, ?2) GROUP BY pod_id)
SELECT ?1 AS run_a, ?2 AS run_b,
 (SELECT count(*) FROM u LEFT JOIN placement a ON a.run_id = ?1 AND a.pod_id = u.pod_id
  LEFT JOIN placement b ON b.run_id = ?2 AND b.pod_id = u.pod_id
  WHERE a.action IS NOT b.action OR a.node_id IS NOT b.node_id) AS pods_changed
