-- kplan report, volumes: the start of the volume statements (not a statement
-- of its own: reports/model.c puts volumes_cte.sql and the section's
-- statement after it).  decision: VolumeBinding's decisions of the run ?1
-- (volume_decision), in order.  volumes_decisions_none.sql is the same
-- without the table.
WITH decision AS MATERIALIZED (
  SELECT seq, pod_id, namespace, claim, action, pv, node_id FROM volume_decision WHERE run_id = ?1),
