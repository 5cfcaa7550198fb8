-- kplan import (importers/store_objects.c): one resource of a node,
-- allocatable and capacity side by side (either may be NULL).
INSERT INTO node_resource(node_id, resource, allocatable, capacity) VALUES(?1, ?2, ?3, ?4)
