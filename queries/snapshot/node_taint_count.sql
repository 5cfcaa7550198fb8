-- kplan plan (planner/snapshot_load.c): taints per node (to size the arrays).
SELECT node_id, count(*) FROM node_taint GROUP BY node_id
