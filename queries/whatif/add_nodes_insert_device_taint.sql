-- what-if --add-nodes (planner/whatif_add_slices.c): a row of
-- add_nodes_read_device_taint.sql for the added device ?2
INSERT INTO temp.device_taint(device_id, seq, key, value, effect, time_added) VALUES(?2, ?3, ?4, ?5, ?6, ?7)
