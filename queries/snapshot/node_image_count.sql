-- kplan plan (planner/snapshot_load.c): images per node (to size the arrays).
SELECT node_id, count(*) FROM node_image GROUP BY node_id
