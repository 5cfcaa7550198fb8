-- kplan plan (planner/snapshot_load.c): what each node offers, per resource.
SELECT node_id, resource, allocatable FROM node_resource WHERE allocatable IS NOT NULL
