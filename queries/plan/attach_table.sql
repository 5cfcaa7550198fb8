-- The run's CSI attach slots for plan quality (queries/quality/setup.sql):
-- per node and driver with a CSINode limit, the limit and the unique volumes
-- of the app pods placed there (each volume counted on one node only).
CREATE TEMP TABLE IF NOT EXISTS kp_q_attach_in(node_id INTEGER, driver TEXT, alloc INTEGER, app INTEGER,
  PRIMARY KEY(node_id, driver));
