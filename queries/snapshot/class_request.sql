-- kplan plan (planner/snapshot_classes.c): the classes' effective requests.
SELECT class_id, resource, value FROM class_request
