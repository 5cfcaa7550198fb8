-- what-if --add-nodes (planner/whatif_add_slices.c): a row of
-- add_nodes_read_device_attribute.sql for the added device ?2
INSERT INTO temp.device_attribute(device_id, domain, name, type, value) VALUES(?2, ?3, ?4, ?5, ?6)
