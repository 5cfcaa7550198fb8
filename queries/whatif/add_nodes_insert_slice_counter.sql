-- what-if --add-nodes (planner/whatif_add_slices.c): a row of
-- add_nodes_read_slice_counter.sql for the added slice ?2
INSERT INTO temp.slice_counter(slice_id, counter_set, counter, value, quantity) VALUES(?2, ?3, ?4, ?5, ?6)
