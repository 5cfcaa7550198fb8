-- A filter extender: pods labelled tier=database never land on spot nodes
-- (nodes labelled node.kubernetes.io/lifecycle=spot or with "spot" in their
-- name).  Returns the (pod, node) pairs to exclude, with the reason shown in
-- kplan's "0/N nodes are available" messages.
-- Use it from a KubeSchedulerConfiguration profile:
--   pluginConfig:
--   - name: KplanSQLExtenders
--     args:
--       filters: [{file: keep-databases-off-spot.sql}]
SELECT p.pod_id, n.id, 'node(s) are spot instances and the pod is a database'
FROM temp.kp_pending p
JOIN pod_label l ON l.pod_id = p.pod_id AND l.key = 'tier' AND l.value = 'database'
JOIN node n
WHERE n.name LIKE '%spot%'
   OR EXISTS (SELECT 1 FROM node_label nl WHERE nl.node_id = n.id
              AND nl.key = 'node.kubernetes.io/lifecycle' AND nl.value = 'spot');
