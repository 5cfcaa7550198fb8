-- One device of the run's allocations (dra_allocation).
INSERT INTO dra_allocation(run_id, seq, pod_id, claim_id, namespace, claim, request, driver, pool, device, admin_access, node_id,
  consumed)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13);
