-- kplan fix (planner/fix.c): run ?1's what-if scenario as (option, value)
-- pairs, in the order recorded (a rebalance run's moves are not replayed).
SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]')
FROM run r, json_each(CASE WHEN json_valid(r.options) THEN r.options ELSE '{}' END, '$.whatif') j
WHERE r.id = ?1 ORDER BY j.key
