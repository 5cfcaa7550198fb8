-- kplan capacity: what a scheduling class requests, in reading order
-- (planner/capacity_fit.c)
SELECT resource, value FROM class_request WHERE class_id = ?1 AND value > 0
ORDER BY resource <> 'cpu', resource <> 'memory', resource
