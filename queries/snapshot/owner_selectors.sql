-- kplan plan (planner/snapshot_load.c): the selectors of the controllers
-- whose pods default spreading groups (a Deployment stands for the ReplicaSet
-- it would create), in id order.
SELECT id, namespace, selector FROM workload WHERE selector IS NOT NULL AND kind IN
 ('ReplicationController','ReplicaSet','StatefulSet','Deployment') ORDER BY id
