-- what-if add-pods (planner/whatif_add_pods.c): the workload's pod template,
-- and its id, in the database in memory the file was imported into
SELECT namespace, name, class_id, labels, id FROM workload WHERE class_id IS NOT NULL
