-- kplan report, GPU: what the GPU sections share (not a statement of its
-- own: reports/model.c puts it after gpu_added_cte.sql or
-- gpu_added_none.sql and before gpu_summary.sql, gpu_pools.sql,
-- gpu_fragmented.sql and gpu_nodes.sql, so the summary and the pools sum
-- the very rows the node lists show).  ?1 the run.
--
-- gf: the run's gpu_fragmentation rows (docs/gpu-devices.md) with the
--   node's name (a node a what-if run added: its run_node name; it has no
--   labels in node_label) and pool: its label node.kubernetes.io/instance-type (the
--   report's pool, as nodes and quality), else its GPU model (label
--   alibabacloud.com/gpu-card-model, as the openb importer writes it), else
--   '(none)'; pool_label says which label.  allocated_milli = milli -
--   free_milli; frag_pct: frag_milli as a share of free_milli (NULL when
--   nothing is free).
gf AS MATERIALIZED (
  SELECT COALESCE(n.name, a.name, '(node ' || f.node_id || ')') AS node,
         COALESCE(it.value, gm.value, '(none)') AS pool,
         CASE WHEN it.value IS NOT NULL THEN 'node.kubernetes.io/instance-type'
              WHEN gm.value IS NOT NULL THEN 'alibabacloud.com/gpu-card-model' END AS pool_label,
         f.gpus, f.milli, f.milli - f.free_milli AS allocated_milli, f.free_milli, f.frag_milli,
         CASE WHEN f.free_milli > 0 THEN round(100.0 * f.frag_milli / f.free_milli, 1) END AS frag_pct,
         f.cpu_left, f.free_list
  FROM gpu_fragmentation f LEFT JOIN node n ON n.id = f.node_id LEFT JOIN added a ON a.node_id = f.node_id
  LEFT JOIN node_label it ON it.node_id = f.node_id AND it.key = 'node.kubernetes.io/instance-type'
  LEFT JOIN node_label gm ON gm.node_id = f.node_id AND gm.key = 'alibabacloud.com/gpu-card-model'
  WHERE f.run_id = ?1)
