-- kplan fix (planner/fix_relax.c): the constraints of class ?3 that pod ?2's
-- failure reasons in run ?1 name, one relaxation each, as
-- (what-if kind, what, in words, level): level 3 (relax-soft) loosens a rule without
-- dropping it (a DoNotSchedule spread constraint's maxSkew + 1), level 4
-- drops one (a nodeSelector key; one matchExpression of a required node
-- affinity term, terms then expressions in order, then the whole required
-- node affinity; a required pod (anti-)affinity term).
SELECT 'node-selector', key, 'drop nodeSelector ' || key || '=' || value, 4 FROM class_node_selector
 WHERE class_id = ?3 AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1 AND pod_id = ?2
 AND plugin = 'NodeAffinity')
UNION ALL SELECT * FROM (SELECT 'node-affinity', e.term || '.' || e.seq, 'drop node affinity requirement "'
 || e.key || ' ' || e.operator || CASE WHEN e.operator IN ('Exists', 'DoesNotExist') THEN '' ELSE ' (' ||
 COALESCE((SELECT group_concat(value, ', ') FROM json_each(e.vals)), '') || ')' END || '" (term ' || e.term
 || ')', 4 FROM class_node_expr e JOIN class_node_term t ON t.class_id = e.class_id AND t.required = 1
 AND t.term = e.term JOIN pod_class p ON p.id = e.class_id AND p.has_required_node_affinity
 WHERE e.class_id = ?3 AND e.required = 1 AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1
 AND pod_id = ?2 AND plugin = 'NodeAffinity' AND reason = 'node(s) didn''t match Pod''s node affinity/selector')
 ORDER BY e.term, e.seq)
UNION ALL SELECT 'node-affinity', 'all', 'drop the required node affinity', 4 FROM pod_class WHERE id = ?3
 AND has_required_node_affinity AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1 AND pod_id = ?2
 AND plugin = 'NodeAffinity' AND reason = 'node(s) didn''t match Pod''s node affinity/selector')
UNION ALL SELECT 'spread', seq, 'raise maxSkew of the topology spread constraint on ' || topology_key ||
 ' from ' || max_skew || ' to ' || (max_skew + 1), 3 FROM class_spread WHERE class_id = ?3
 AND when_unsatisfiable = 'DoNotSchedule' AND EXISTS (SELECT 1 FROM pod_failure WHERE run_id = ?1
 AND pod_id = ?2 AND plugin = 'PodTopologySpread')
UNION ALL SELECT 'affinity', seq, 'drop the required pod ' || CASE WHEN anti THEN 'anti-affinity' ELSE
 'affinity' END || ' term on ' || topology_key || COALESCE(' (selector ' || selector || ')', ''), 4
 FROM class_pod_affinity WHERE class_id = ?3 AND required AND EXISTS (SELECT 1 FROM pod_failure
 WHERE run_id = ?1 AND pod_id = ?2 AND plugin = 'InterPodAffinity' AND reason = CASE WHEN anti THEN
 'node(s) didn''t match pod anti-affinity rules' ELSE 'node(s) didn''t match pod affinity rules' END)
