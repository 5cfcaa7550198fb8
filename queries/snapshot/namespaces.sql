-- kplan plan (planner/snapshot_load.c): every namespace a namespace object or
-- a pod names, with how many labels it has.
SELECT u.name, (SELECT count(*) FROM namespace_label l JOIN namespace n ON n.id = l.namespace_id
 WHERE n.name = u.name) FROM (SELECT name FROM namespace UNION SELECT namespace FROM pod) u
