-- what-if --add-nodes (planner/whatif_add_slices.c): a row of
-- add_nodes_read_device_counter.sql for the added device ?2
INSERT INTO temp.device_counter(device_id, counter_set, counter, value, quantity) VALUES(?2, ?3, ?4, ?5, ?6)
