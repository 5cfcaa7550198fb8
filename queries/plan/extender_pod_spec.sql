-- The v1.PodSpec an HTTP scheduler extender receives for a pod
-- (planner/plan_extender.c), built from what kplan stores of its scheduling
-- class: ?1 the class id, ?2 the pod's resolved priority.  One row, one
-- JSON object; fields kplan has no value for are left out (json_patch onto
-- '{}' drops the nulls).  Quantities: cpu in millicores ("250m"), the rest
-- in units ("536870912").  Not stored, so not sent: limits (an import fills
-- requests from them), volumes, env, commands, probes; host ports go to the
-- first container.  Label selectors are kplan's [[key, op, [values]]]: sent
-- as matchExpressions (matchLabels became In expressions on import).
WITH
cls AS (SELECT * FROM pod_class WHERE id = ?1),
ctr AS (
  SELECT cc.kind, cc.seq, json_patch('{}', json_object(
      'name', cc.name,
      'image', cc.image,
      'restartPolicy', CASE cc.kind WHEN 'sidecar' THEN 'Always' END,
      'resources', json_object('requests', (
        SELECT CASE WHEN count(*) THEN json_group_object(r.key,
                 CASE r.key WHEN 'cpu' THEN r.value || 'm' ELSE CAST(r.value AS TEXT) END) END
        FROM json_each(cc.requests) r)),
      'ports', CASE WHEN cc.seq = (SELECT min(seq) FROM class_container WHERE class_id = ?1 AND kind = 'app') THEN (
        SELECT CASE WHEN count(*) THEN json_group_array(json(json_patch('{}', json_object(
                 'containerPort', COALESCE(p.container_port, p.host_port), 'hostPort', p.host_port,
                 'protocol', p.protocol, 'hostIP', NULLIF(p.host_ip, '0.0.0.0'))))) END
        FROM class_port p WHERE p.class_id = ?1) END)) AS j
  FROM class_container cc WHERE cc.class_id = ?1
),
nexpr AS (   -- node selector requirements, per term
  SELECT e.required, e.term, e.field,
         json_group_array(json(json_object('key', e.key, 'operator', e.operator, 'values', json(e.vals)))) AS j
  FROM (SELECT * FROM class_node_expr WHERE class_id = ?1 ORDER BY required, term, seq) e
  GROUP BY e.required, e.term, e.field
),
nterm AS (
  SELECT t.required, t.term, t.weight, json_patch('{}', json_object(
      'matchExpressions', (SELECT json(j) FROM nexpr x WHERE x.required = t.required AND x.term = t.term AND x.field = 0),
      'matchFields', (SELECT json(j) FROM nexpr x WHERE x.required = t.required AND x.term = t.term AND x.field = 1))) AS j
  FROM class_node_term t WHERE t.class_id = ?1
),
pterm AS (
  SELECT a.anti, a.required, a.weight, a.seq, json_patch('{}', json_object(
      'labelSelector', CASE WHEN a.selector IS NOT NULL THEN (
        SELECT json_object('matchExpressions', json_group_array(json(json_object('key', json_extract(e.value, '$[0]'),
                 'operator', json_extract(e.value, '$[1]'), 'values', json(json_extract(e.value, '$[2]'))))))
        FROM json_each(a.selector) e) END,
      'namespaces', CASE WHEN a.namespaces <> '[]' THEN json(a.namespaces) END,
      'namespaceSelector', CASE WHEN a.ns_selector IS NOT NULL THEN (
        SELECT json_object('matchExpressions', json_group_array(json(json_object('key', json_extract(e.value, '$[0]'),
                 'operator', json_extract(e.value, '$[1]'), 'values', json(json_extract(e.value, '$[2]'))))))
        FROM json_each(a.ns_selector) e) END,
      'topologyKey', a.topology_key,
      'matchLabelKeys', CASE WHEN a.match_label_keys <> '[]' THEN json(a.match_label_keys) END,
      'mismatchLabelKeys', CASE WHEN a.mismatch_label_keys <> '[]' THEN json(a.mismatch_label_keys) END)) AS j
  FROM class_pod_affinity a WHERE a.class_id = ?1
),
paff AS (    -- podAffinity (anti 0) and podAntiAffinity (anti 1)
  SELECT k.anti, json_patch('{}', json_object(
      'requiredDuringSchedulingIgnoredDuringExecution', (
        SELECT CASE WHEN count(*) THEN json_group_array(json(j)) END
        FROM (SELECT j FROM pterm WHERE anti = k.anti AND required = 1 ORDER BY seq)),
      'preferredDuringSchedulingIgnoredDuringExecution', (
        SELECT CASE WHEN count(*) THEN json_group_array(json(json_object('weight', weight, 'podAffinityTerm', json(j)))) END
        FROM (SELECT weight, j FROM pterm WHERE anti = k.anti AND required = 0 ORDER BY seq)))) AS j
  FROM (SELECT DISTINCT anti FROM pterm) k
)
SELECT json_patch('{}', json_object(
  'schedulerName', cls.scheduler_name,
  'priority', ?2,
  'priorityClassName', cls.priority_class,
  'preemptionPolicy', cls.preemption_policy,
  'hostNetwork', CASE WHEN cls.host_network THEN json('true') END,
  'nodeSelector', (SELECT CASE WHEN count(*) THEN json_group_object(key, value) END
                   FROM class_node_selector WHERE class_id = ?1),
  'tolerations', (SELECT CASE WHEN count(*) THEN json_group_array(json(json_patch('{}', json_object(
                    'key', NULLIF(key, ''), 'operator', operator, 'value', NULLIF(value, ''),
                    'effect', NULLIF(effect, ''), 'tolerationSeconds', seconds)))) END
                  FROM (SELECT * FROM class_toleration WHERE class_id = ?1 ORDER BY seq)),
  'affinity', json(NULLIF(json_patch('{}', json_object(
    'nodeAffinity', json(NULLIF(json_patch('{}', json_object(
      'requiredDuringSchedulingIgnoredDuringExecution', (
        SELECT CASE WHEN count(*) THEN json_object('nodeSelectorTerms', json_group_array(json(j))) END
        FROM (SELECT j FROM nterm WHERE required = 1 ORDER BY term)),
      'preferredDuringSchedulingIgnoredDuringExecution', (
        SELECT CASE WHEN count(*) THEN json_group_array(json(json_object('weight', weight, 'preference', json(j)))) END
        FROM (SELECT weight, j FROM nterm WHERE required = 0 ORDER BY term)))), '{}')),
    'podAffinity', (SELECT json(j) FROM paff WHERE anti = 0),
    'podAntiAffinity', (SELECT json(j) FROM paff WHERE anti = 1))), '{}')),
  'topologySpreadConstraints', (
    SELECT CASE WHEN count(*) THEN json_group_array(json(json_patch('{}', json_object(
             'maxSkew', s.max_skew, 'topologyKey', s.topology_key, 'whenUnsatisfiable', s.when_unsatisfiable,
             'labelSelector', CASE WHEN s.selector IS NOT NULL THEN (
               SELECT json_object('matchExpressions', json_group_array(json(json_object('key', json_extract(e.value, '$[0]'),
                        'operator', json_extract(e.value, '$[1]'), 'values', json(json_extract(e.value, '$[2]'))))))
               FROM json_each(s.selector) e) END,
             'minDomains', s.min_domains, 'nodeAffinityPolicy', s.node_affinity_policy,
             'nodeTaintsPolicy', s.node_taints_policy,
             'matchLabelKeys', CASE WHEN s.match_label_keys <> '[]' THEN json(s.match_label_keys) END)))) END
    FROM (SELECT * FROM class_spread WHERE class_id = ?1 ORDER BY seq) s),
  'initContainers', (SELECT CASE WHEN count(*) THEN json_group_array(json(j)) END
                     FROM (SELECT j FROM ctr WHERE kind <> 'app' ORDER BY seq)),
  'containers', (SELECT CASE WHEN count(*) THEN json_group_array(json(j)) END
                 FROM (SELECT j FROM ctr WHERE kind = 'app' ORDER BY seq))
))
FROM cls;
