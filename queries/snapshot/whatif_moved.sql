-- kplan plan (planner/snapshot_load.c): the pods a what-if scenario took off
-- a node, with that node (planner/whatif_*.c fill the table; without a
-- scenario it does not exist).
SELECT pod_id, node_id FROM temp.kp_whatif_moved
