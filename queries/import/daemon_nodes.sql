-- kplan import (importers/store_expand.c): the nodes DaemonSet ?2 of
-- namespace ?1 still needs a pod on: not failed by the static filters
-- (temp.kp_ds_fail) and without a live pod of it read from the input.
SELECT n.name FROM node n
WHERE n.id NOT IN (SELECT node_id FROM temp.kp_ds_fail)
  AND NOT EXISTS (SELECT 1 FROM pod p WHERE p.namespace = ?1 AND p.owner_kind = 'DaemonSet' AND p.owner_name = ?2
                  AND p.workload_id IS NULL AND p.node_name = n.name AND p.phase NOT IN ('Succeeded','Failed'))
ORDER BY n.name
