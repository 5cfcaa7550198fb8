-- free-capacity.sql — what is left on each node after the latest plan, per resource.
--
-- Answers: how much cpu, memory, GPU and pod slots each node still has once the plan is
--          applied (allocatable minus the requests of the pods that stay or land there).
-- Run:     kplan query cluster.db - < queries/cookbook/free-capacity.sql
-- Columns: node, free_cpu_m, free_memory_gib (2 decimals), free_gpus (nvidia.com/gpu; NULL when
--          the node has none), free_pod_slots
WITH r AS (SELECT max(id) AS id FROM run)
SELECT n.name AS node,
       (SELECT allocatable - requested_after FROM node_usage u WHERE u.node = n.name AND u.resource = 'cpu') AS free_cpu_m,
       (SELECT round((allocatable - requested_after) / 1073741824.0, 2) FROM node_usage u
        WHERE u.node = n.name AND u.resource = 'memory') AS free_memory_gib,
       (SELECT allocatable - requested_after FROM node_usage u WHERE u.node = n.name AND u.resource = 'nvidia.com/gpu'
          AND u.allocatable > 0) AS free_gpus,
       (SELECT allocatable FROM node_resource WHERE node_id = n.id AND resource = 'pods')
       - (SELECT count(*) FROM placement pl WHERE pl.run_id = (SELECT id FROM r) AND pl.node_id = n.id
            AND pl.action IN ('keep', 'bind', 'move')) AS free_pod_slots
FROM node n
ORDER BY free_cpu_m DESC, n.name;
