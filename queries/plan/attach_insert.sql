INSERT INTO temp.kp_q_attach_in(node_id, driver, alloc, app) VALUES (?1, ?2, ?3, ?4);
