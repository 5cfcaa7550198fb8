-- kplan report, volumes: volumes_decisions_cte.sql for a database without
-- volume_decision (no run of it made a volume decision): no row.
WITH decision AS MATERIALIZED (
  SELECT NULL AS seq, NULL AS pod_id, NULL AS namespace, NULL AS claim, NULL AS action, NULL AS pv, NULL AS node_id
  WHERE 0),
