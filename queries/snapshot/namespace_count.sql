-- kplan plan (planner/snapshot_load.c): every namespace a namespace object or
-- a pod names.
SELECT count(*) FROM (SELECT name FROM namespace UNION SELECT namespace FROM pod)
