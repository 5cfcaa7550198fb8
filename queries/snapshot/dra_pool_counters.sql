-- The counter sets of a pool (driver ?1, pool ?2, generation ?3), from any of its slices.
SELECT c.counter_set, c.counter, c.value
FROM slice_counter c JOIN resource_slice s ON s.id = c.slice_id
WHERE s.driver = ?1 AND s.pool = ?2 AND s.pool_generation = ?3 ORDER BY c.counter_set, c.counter;
