-- kplan plan (planner/snapshot_load.c): the nodes' taints, in spec order.
SELECT node_id, key, value, effect FROM node_taint ORDER BY node_id, seq
