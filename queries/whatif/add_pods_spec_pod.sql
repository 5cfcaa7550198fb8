-- what-if add-pods (planner/whatif_add_pods.c): the Pod, with its labels as a
-- JSON object, and its id, in the database in memory the file was imported
-- into
SELECT p.namespace, p.name, p.class_id, (SELECT json_group_object(key, value) FROM pod_label l
WHERE l.pod_id = p.id), p.id FROM pod p
