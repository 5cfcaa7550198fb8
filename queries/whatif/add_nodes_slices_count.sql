-- what-if --add-nodes (planner/whatif_add_slices.c): the template's
-- ResourceSlices, in the database in memory the template file was imported into
SELECT count(*) FROM resource_slice
