-- kplan plan (planner/snapshot_load.c): the nodes' labels.
SELECT node_id, key, value FROM node_label
