-- kplan plan quality (planner/quality.c): the working tables, in temp (this
-- connection only), dropped at the end (cleanup.sql); ?1 is the run, ?2 the
-- pool label.
--   kp_q_pool(node_id, pool)                      every node
--   kp_q_pc(node_id, class_id, per_node, n)       placed pods per node and class
--   kp_q_nr(node_id, pool, resource, alloc, overhead, app)
--       every node of a pool x each resource some pod placed in the pool
--       requests, and 'pods' (a count); overhead: the per-node pods' requests,
--       app: the app pods'
--   kp_q_app(pool, class_id, n)                   app pods per pool and class
--   kp_q_areq(pool, resource, value, n)           app pods per pool and positive request of a
--       resource (pods left out): what plan_quality's large pods and plan_stranded's smallest
--       request read, once (pods of many classes share few requests)
-- and, from the planner's temp.kp_q_attach_in (plan_write.c), the CSI attach
-- slots as a resource 'attach:DRIVER' of kp_q_nr where the limit binds every
-- node of the pool (a node without a limit has unbounded slots: no bound);
-- devices.sql adds DRA devices as 'device:DRIVER' when the DRA tables exist.
CREATE TEMP TABLE kp_q_pool(node_id INTEGER PRIMARY KEY, pool TEXT NOT NULL);
INSERT INTO temp.kp_q_pool SELECT n.id, COALESCE(l.value, '(none)')
FROM node n LEFT JOIN node_label l ON l.node_id = n.id AND l.key = ?2;
CREATE TEMP TABLE kp_q_pc(node_id INTEGER, class_id INTEGER, per_node INTEGER, n INTEGER);
INSERT INTO temp.kp_q_pc
SELECT pl.node_id, p.class_id, COALESCE(p.owner_kind IN ('DaemonSet', 'Node'), 0) OR p.daemon_node IS NOT NULL,
       count(*)
FROM placement pl JOIN pod p ON p.id = pl.pod_id
WHERE pl.run_id = ?1 AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IN (SELECT node_id FROM temp.kp_q_pool)
GROUP BY 1, 2, 3;
CREATE TEMP TABLE kp_q_nr(node_id INTEGER, pool TEXT, resource TEXT, alloc INTEGER, overhead INTEGER,
  app INTEGER, PRIMARY KEY(node_id, resource));
INSERT INTO temp.kp_q_nr
WITH agg AS MATERIALIZED (
  SELECT x.node_id, q.resource, SUM(CASE WHEN x.per_node THEN x.n * q.value ELSE 0 END) AS overhead,
         SUM(CASE WHEN x.per_node THEN 0 ELSE x.n * q.value END) AS app
  FROM temp.kp_q_pc x JOIN class_request q ON q.class_id = x.class_id
  WHERE q.resource <> 'pods' AND q.value > 0 GROUP BY 1, 2
  UNION ALL SELECT node_id, 'pods', SUM(per_node * n), SUM((NOT per_node) * n) FROM temp.kp_q_pc GROUP BY 1),
pres AS (SELECT DISTINCT np.pool, a.resource FROM agg a JOIN temp.kp_q_pool np ON np.node_id = a.node_id)
SELECT np.node_id, np.pool, pr.resource, COALESCE(nr.allocatable, 0), COALESCE(a.overhead, 0), COALESCE(a.app, 0)
FROM pres pr JOIN temp.kp_q_pool np ON np.pool = pr.pool
LEFT JOIN node_resource nr ON nr.node_id = np.node_id AND nr.resource = pr.resource
LEFT JOIN agg a ON a.node_id = np.node_id AND a.resource = pr.resource;
CREATE TEMP TABLE kp_q_app(pool TEXT, class_id INTEGER, n INTEGER, PRIMARY KEY(pool, class_id));
INSERT INTO temp.kp_q_app SELECT np.pool, x.class_id, SUM(x.n)
FROM temp.kp_q_pc x JOIN temp.kp_q_pool np ON np.node_id = x.node_id WHERE NOT x.per_node GROUP BY 1, 2;
CREATE TEMP TABLE kp_q_areq(pool TEXT, resource TEXT, value INTEGER, n INTEGER);
INSERT INTO temp.kp_q_areq SELECT a.pool, q.resource, q.value, SUM(a.n)
FROM temp.kp_q_app a JOIN class_request q ON q.class_id = a.class_id
WHERE q.resource <> 'pods' AND q.value > 0 GROUP BY 1, 2, 3;
INSERT INTO temp.kp_q_nr
WITH lim AS MATERIALIZED (
  SELECT np.pool, a.driver, count(*) AS n, SUM(a.app) AS app
  FROM temp.kp_q_attach_in a JOIN temp.kp_q_pool np ON np.node_id = a.node_id GROUP BY 1, 2),
pn AS MATERIALIZED (SELECT pool, count(*) AS n FROM temp.kp_q_pool GROUP BY pool)
SELECT a.node_id, np.pool, 'attach:' || a.driver, a.alloc, 0, a.app
FROM temp.kp_q_attach_in a JOIN temp.kp_q_pool np ON np.node_id = a.node_id
JOIN lim l ON l.pool = np.pool AND l.driver = a.driver
JOIN pn ON pn.pool = np.pool
WHERE l.n = pn.n AND l.app > 0;
