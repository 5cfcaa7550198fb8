-- kplan plan (planner/snapshot_load.c): every node, in name order (the
-- snapshot's node index is this order).
SELECT id, name, unschedulable FROM node ORDER BY name
