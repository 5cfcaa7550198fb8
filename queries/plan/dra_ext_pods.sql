-- kplan plan (planner/plan.c): the pods that request an extended resource a
-- DeviceClass maps (spec.extendedResourceName, or the implicit
-- deviceclass.resource.kubernetes.io/<class>): kube 1.36+ hands such a
-- request to DRA on nodes that do not advertise the resource; kplan does not
-- model that (the warning says so).  No device_class table: none.
SELECT DISTINCT p.id FROM pod p JOIN class_request q ON q.class_id = p.class_id
JOIN device_class d ON q.resource = d.extended_resource_name OR q.resource = 'deviceclass.resource.kubernetes.io/' || d.name
WHERE q.value > 0 ORDER BY p.id
