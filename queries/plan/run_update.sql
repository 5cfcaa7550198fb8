-- kplan plan (planner/plan_write.c): the run's counts and elapsed time,
-- once its rows are written.
UPDATE run SET nodes = ?2, pending = ?3, bound = ?4, unschedulable = ?5, kept = ?6,
               ignored = ?7, passes = ?8, elapsed = ?9, evicted = ?10, moved = ?11
WHERE id = ?1
