-- kplan plan (planner/snapshot_kube.c): the nodes' status.declaredFeatures, sorted.
SELECT node_id, feature FROM node_declared_feature ORDER BY node_id, feature
