-- kplan plan (planner/snapshot_load.c): how many DaemonSets were imported.
SELECT count(*) FROM workload WHERE kind = 'DaemonSet'
