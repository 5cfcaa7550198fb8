-- kplan report, devices: dra_allocation_cte.sql for a database without
-- dra_allocation: no row.
WITH alloc AS MATERIALIZED (
  SELECT NULL AS seq, NULL AS pod_id, NULL AS claim_id, NULL AS namespace, NULL AS claim, NULL AS request,
         NULL AS driver, NULL AS pool, NULL AS device, NULL AS admin_access, NULL AS node_id
  WHERE 0),
