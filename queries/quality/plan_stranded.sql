-- kplan plan quality (planner/quality.c): plan_stranded rows of run ?1, per
-- pool and resource, from the working tables of setup.sql: the free amount on
-- the used nodes, and of it what is stranded (free where another resource is
-- exhausted), with the resources that exhaust it.  docs/planning.md, "Plan quality".
INSERT INTO plan_stranded(run_id, pool, resource, nodes, allocatable, free, stranded, stranded_nodes,
  stranded_pct, exhausted_by)
WITH usedn AS MATERIALIZED (SELECT node_id FROM temp.kp_q_nr WHERE resource = 'pods' AND app > 0),
-- per pool: the smallest positive request of each resource among its app pods
-- (attach slots and devices: 1)
smallest AS MATERIALIZED (
  SELECT pool, resource, min(value) AS m FROM temp.kp_q_areq GROUP BY 1, 2
  UNION ALL SELECT DISTINCT pool, 'pods', 1 FROM temp.kp_q_app
  UNION ALL SELECT DISTINCT pool, resource, 1 FROM temp.kp_q_nr WHERE resource LIKE 'attach:%' OR resource LIKE 'device:%'),
nfree AS MATERIALIZED (
  SELECT r.pool, r.node_id, r.resource, r.alloc, max(r.alloc - r.overhead - r.app, 0) AS free, s.m
  FROM temp.kp_q_nr r JOIN usedn u ON u.node_id = r.node_id
  LEFT JOIN smallest s ON s.pool = r.pool AND s.resource = r.resource),
exhausted AS MATERIALIZED (SELECT node_id, resource FROM nfree WHERE free < m),
strand AS MATERIALIZED (
  SELECT f.pool, f.node_id, f.resource, f.alloc, f.free,
         f.free > 0 AND EXISTS (SELECT 1 FROM exhausted e WHERE e.node_id = f.node_id AND e.resource <> f.resource) AS s
  FROM nfree f WHERE f.resource <> 'pods'),
ex AS (
  SELECT st.pool, st.resource, e.resource AS exh, count(*) AS n
  FROM strand st JOIN exhausted e ON e.node_id = st.node_id AND e.resource <> st.resource
  WHERE st.s GROUP BY 1, 2, 3)
SELECT ?1, pool, resource, count(*), sum(alloc), sum(free), sum(CASE WHEN s THEN free ELSE 0 END), sum(s),
  CASE WHEN sum(alloc) > 0 THEN round(100.0 * sum(CASE WHEN s THEN free ELSE 0 END) / sum(alloc), 1) END,
  (SELECT group_concat(exh, ', ') FROM (SELECT exh FROM ex WHERE ex.pool = st.pool AND ex.resource = st.resource
                                       ORDER BY n DESC, exh <> 'cpu', exh <> 'memory', exh))
FROM strand st GROUP BY pool, resource ORDER BY pool, resource <> 'cpu', resource <> 'memory', resource
