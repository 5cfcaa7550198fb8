-- kplan plan (planner/snapshot_kube.c): the classes' version-dependent inputs.
SELECT class_id, input FROM class_kube_input
