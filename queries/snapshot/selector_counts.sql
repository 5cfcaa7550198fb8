-- kplan plan (planner/snapshot_load.c): how many Services and workloads (to
-- size the selector arrays).
SELECT (SELECT count(*) FROM service), (SELECT count(*) FROM workload)
