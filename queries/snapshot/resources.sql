-- kplan plan (planner/snapshot_load.c): every resource name a node offers or
-- a class requests (after the fixed cpu, memory, ephemeral-storage, pods).
SELECT resource FROM node_resource UNION SELECT resource FROM class_request ORDER BY 1
