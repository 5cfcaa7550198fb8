-- kplan import (importers/import.c): pod classes no pod or workload uses any
-- more (a re-import may have orphaned them) go, with their rows.
CREATE TEMP TABLE kp_dead AS SELECT id FROM pod_class WHERE id NOT IN (SELECT class_id FROM pod)
AND id NOT IN (SELECT class_id FROM workload WHERE class_id IS NOT NULL)
AND id NOT IN (SELECT pod_class_id FROM workload WHERE pod_class_id IS NOT NULL);
DELETE FROM class_request WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_container WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_node_selector WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_toleration WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_node_term WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_node_expr WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_pod_affinity WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_spread WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_port WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_feature WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_kube_input WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM class_request_alt WHERE class_id IN (SELECT id FROM temp.kp_dead);
DELETE FROM pod_class WHERE id IN (SELECT id FROM temp.kp_dead);
DROP TABLE temp.kp_dead;
