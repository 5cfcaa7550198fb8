-- kplan plan (planner/snapshot_load.c): labels per node (to size the arrays).
SELECT node_id, count(*) FROM node_label GROUP BY node_id
