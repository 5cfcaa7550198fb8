-- kplan report, devices: the start of the devices statements (not a
-- statement of its own: reports/model.c puts dra_cte.sql and the section's
-- statement after it).  alloc: the devices the run ?1 allocated
-- (dra_allocation), in order.  dra_allocation_none.sql is the same without
-- the table.
WITH alloc AS MATERIALIZED (
  SELECT seq, pod_id, claim_id, namespace, claim, request, driver, pool, device, admin_access, node_id
  FROM dra_allocation WHERE run_id = ?1),
