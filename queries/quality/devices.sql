-- kplan plan quality (planner/quality.c): DRA devices as a resource
-- 'device:DRIVER' of temp.kp_q_nr (setup.sql), run only when the DRA tables
-- exist (dra_check.sql); ?1 is the run.  Per driver, not per DeviceClass: a
-- class selects devices by CEL, which SQL cannot evaluate.
--   a node's devices (alloc): the devices of the node-local slices of each
--     (driver, pool)'s newest generation — the slice's nodeName is the node,
--     or with perDeviceNodeSelection the device's nodeName.  Network-attached
--     devices (nodeSelector, allNodes) belong to no one node: left out, of
--     the capacity and of what the pods hold alike.  A node without a slice
--     of the driver has none.
--   in use: the devices an allocated claim holds (imported results, and the
--     run's dra_allocation rows), admin access left out (it takes nothing);
--   app: of the node's devices in use, those a claim of an app pod placed
--     on the node holds (each device once, however many pods share it);
--     overhead: the rest in use (per-node pods' claims, claims of pods not
--     placed there).
-- Rows for every node of a pool whose app pods hold one of their node's
-- devices of the driver.
INSERT INTO temp.kp_q_nr
WITH gen AS MATERIALIZED (SELECT driver, pool, max(pool_generation) AS g FROM resource_slice GROUP BY 1, 2),
dev AS MATERIALIZED (
  SELECT DISTINCT np.node_id, np.pool AS npool, s.driver, s.pool, d.name AS device
  FROM resource_slice s JOIN gen ON gen.driver = s.driver AND gen.pool = s.pool AND gen.g = s.pool_generation
  JOIN slice_device d ON d.slice_id = s.id
  JOIN node n ON n.name = CASE WHEN s.per_device_node_selection THEN d.node_name ELSE s.node_name END
  JOIN temp.kp_q_pool np ON np.node_id = n.id),
-- (duplicates in inuse and appc are harmless: both are read only through
-- the DISTINCT sets below, so neither pays for a dedupe of its own)
inuse AS MATERIALIZED (
  SELECT r.claim_id, r.driver, r.pool, r.device FROM resource_claim_result r JOIN resource_claim c ON c.id = r.claim_id
  WHERE c.allocated = 1 AND r.admin_access = 0
  UNION ALL SELECT claim_id, driver, pool, device FROM dra_allocation WHERE run_id = ?1 AND admin_access = 0),
-- the claims of the app pods each node holds after the run
appc AS MATERIALIZED (
  SELECT pl.node_id, c.id AS claim_id
  FROM placement pl JOIN pod p ON p.id = pl.pod_id
  JOIN pod_resource_claim pc ON pc.pod_id = p.id
  JOIN resource_claim c ON c.namespace = p.namespace AND c.name = pc.claim
  WHERE pl.run_id = ?1 AND pl.action IN ('keep', 'bind', 'move')
    AND NOT (COALESCE(p.owner_kind IN ('DaemonSet', 'Node'), 0) OR p.daemon_node IS NOT NULL)),
-- each device once: in use at all, and held by an app pod on the node
inuse_dev AS MATERIALIZED (SELECT DISTINCT driver, pool, device FROM inuse),
app_dev AS MATERIALIZED (
  SELECT DISTINCT a.node_id, u.driver, u.pool, u.device FROM inuse u JOIN appc a ON a.claim_id = u.claim_id),
nd AS MATERIALIZED (
  SELECT d.node_id, d.npool, d.driver, count(*) AS alloc, SUM(u.device IS NOT NULL) AS used,
    SUM(a.device IS NOT NULL) AS app
  FROM dev d
  LEFT JOIN inuse_dev u ON u.driver = d.driver AND u.pool = d.pool AND u.device = d.device
  LEFT JOIN app_dev a ON a.node_id = d.node_id AND a.driver = d.driver AND a.pool = d.pool AND a.device = d.device
  GROUP BY 1, 2, 3),
drv AS (SELECT npool, driver FROM nd GROUP BY 1, 2 HAVING SUM(app) > 0)
SELECT np.node_id, np.pool, 'device:' || v.driver, COALESCE(nd.alloc, 0), COALESCE(nd.used - nd.app, 0),
       COALESCE(nd.app, 0)
FROM drv v JOIN temp.kp_q_pool np ON np.pool = v.npool
LEFT JOIN nd ON nd.node_id = np.node_id AND nd.driver = v.driver
