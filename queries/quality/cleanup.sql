-- kplan plan quality (planner/quality.c): drop the working tables of
-- setup.sql (before they are made, and at the end).
DROP TABLE IF EXISTS temp.kp_q_pool;
DROP TABLE IF EXISTS temp.kp_q_pc;
DROP TABLE IF EXISTS temp.kp_q_nr;
DROP TABLE IF EXISTS temp.kp_q_app;
DROP TABLE IF EXISTS temp.kp_q_areq;
