-- what-if --add-nodes (planner/whatif_add_slices.c): 7 when the database has
-- the ResourceSlice tables (schema/dra.sql); fewer for one made before them
SELECT count(*) FROM main.sqlite_schema WHERE type = 'table' AND name IN ('resource_slice', 'slice_counter',
	'slice_device', 'device_attribute', 'device_capacity', 'device_counter', 'device_taint')
