-- kplan plan (planner/snapshot_load.c): the images on each node, by name
-- (ImageLocality).
SELECT node_id, name, size_bytes FROM node_image ORDER BY node_id, name
