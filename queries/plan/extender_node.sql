-- What the snapshot does not hold of a node for an HTTP extender's v1.Node
-- (planner/plan_extender.c): ?1 the node id; its uid and status.capacity as
-- a JSON object of quantities (cpu in millicores, the rest in units).
SELECT n.uid,
       (SELECT CASE WHEN count(*) THEN json_group_object(r.resource,
                 CASE r.resource WHEN 'cpu' THEN r.capacity || 'm' ELSE CAST(r.capacity AS TEXT) END) END
        FROM node_resource r WHERE r.node_id = n.id AND r.capacity IS NOT NULL)
FROM node n WHERE n.id = ?1
