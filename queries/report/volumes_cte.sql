-- kplan report, volumes: what the volume sections share (not a statement of
-- its own: reports/model.c puts it after volumes_decisions_cte.sql or
-- volumes_decisions_none.sql, and before volumes_summary.sql,
-- volumes_pinned.sql, volumes_decisions.sql and volumes_attach.sql, so the
-- summary counts the very rows the tables list).  ?1 the run.
--
-- placed: the pods the run keeps, binds or moves (placement), on their node.
-- pvol: their volumes (pod_volume).
-- claim_use: one row per placed pod and claim (pod_volume kind pvc or
--   ephemeral; the claim is pvc in the pod's namespace); binding: 'bind' or
--   'provision' when the run decided it (decision, the first per claim),
--   else 'bound' when pvc.volume_name names a row of pv, else NULL; pv_id:
--   that PV; class: pvc.storage_class, the default StorageClass when NULL
--   (storage_class.is_default, the last imported), none when ''.
-- pin_aff, pin_label: a PV's pv.node_affinity as text ("key in (a, b) and
--   ... or ..."), its zone and region labels (pv_label).
-- pinned: the claims that pin a placed pod: bound to a PV with node affinity
--   or a zone/region label, or bound or provisioned by the run.
-- vol_key: per node, the unique volumes NodeVolumeLimits counts: a claim with
--   a PV whose source is csi or a migratable in-tree disk: pv.driver and
--   "driver/volume_handle" (an EBS volume id without its aws://zone/ prefix);
--   a claim without a PV: its class's provisioner (an in-tree provisioner
--   as its CSI driver) and "pvc:namespace/claim"; an in-tree disk of the pod
--   (pod_volume kind intree): pod_volume.driver and "driver/volume_handle".
-- attach: per node and driver with a limit (csi_node.allocatable not NULL),
--   the unique volumes attached after the run.
vd AS MATERIALIZED (SELECT namespace, claim, action, pv, min(seq) AS seq FROM decision GROUP BY namespace, claim),
placed AS MATERIALIZED (
  SELECT pl.pod_id, pl.node_id, p.namespace, p.namespace || '/' || p.name AS pod
  FROM placement pl JOIN pod p ON p.id = pl.pod_id
  WHERE pl.run_id = ?1 AND pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL),
pvol AS MATERIALIZED (
  SELECT x.pod_id, x.node_id, x.namespace, x.pod, v.kind, v.claim, v.source, v.driver,
         CASE WHEN v.source = 'awsElasticBlockStore' AND v.volume_handle LIKE 'aws://%'
              THEN substr(v.volume_handle, length(rtrim(v.volume_handle, replace(v.volume_handle, '/', ''))) + 1)
              ELSE COALESCE(v.volume_handle, '') END AS handle
  FROM placed x JOIN pod_volume v ON v.pod_id = x.pod_id),
claim_use AS MATERIALIZED (
  SELECT DISTINCT u.pod_id, u.node_id, u.namespace, u.pod, c.name AS claim,
         CASE WHEN d.action IS NOT NULL THEN d.action WHEN b.id IS NOT NULL THEN 'bound' END AS binding,
         CASE WHEN d.action = 'bind' THEN db.id WHEN d.action IS NULL THEN b.id END AS pv_id,
         CASE WHEN c.storage_class IS NULL
              THEN (SELECT name FROM storage_class WHERE is_default = 1 ORDER BY id DESC LIMIT 1)
              ELSE NULLIF(c.storage_class, '') END AS class
  FROM pvol u JOIN pvc c ON c.namespace = u.namespace AND c.name = u.claim
  LEFT JOIN vd d ON d.namespace = c.namespace AND d.claim = c.name
  LEFT JOIN pv db ON db.name = d.pv
  LEFT JOIN pv b ON b.name = c.volume_name
  WHERE u.kind IN ('pvc', 'ephemeral')),
pv_req AS (
  SELECT v.id AS pv_id, t.key AS term, f.f, r.key AS k, json_extract(r.value, '$[0]') AS key,
         json_extract(r.value, '$[1]') AS op, (SELECT group_concat(value, ', ') FROM json_each(r.value, '$[2]')) AS vals
  FROM pv v, json_each(CASE WHEN json_valid(v.node_affinity) THEN v.node_affinity END) t,
       (SELECT 0 AS f, '$.matchExpressions' AS path UNION ALL SELECT 1, '$.matchFields') f,
       json_each(t.value, f.path) r
  WHERE v.id IN (SELECT pv_id FROM claim_use) AND json_type(t.value) = 'object'),
pin_aff AS (
  SELECT pv_id, group_concat(txt, ' or ') AS txt FROM (
    SELECT pv_id, term, group_concat(txt, ' and ') AS txt FROM (
      SELECT pv_id, term,
             CASE op WHEN 'In' THEN key || ' in (' || vals || ')' WHEN 'NotIn' THEN key || ' notin (' || vals || ')'
                     WHEN 'Exists' THEN key || ' exists' WHEN 'DoesNotExist' THEN key || ' does not exist'
                     WHEN 'Gt' THEN key || ' > ' || vals WHEN 'Lt' THEN key || ' < ' || vals
                     ELSE key || ' ' || op || ' (' || COALESCE(vals, '') || ')' END AS txt
      FROM pv_req ORDER BY pv_id, term, f, k)
    GROUP BY pv_id, term ORDER BY pv_id, term)
  GROUP BY pv_id),
pin_label AS (
  SELECT pv_id, group_concat(key || '=' || value, ', ') AS txt FROM (
    SELECT pv_id, key, value FROM pv_label
    WHERE pv_id IN (SELECT pv_id FROM claim_use)
      AND key IN ('topology.kubernetes.io/zone', 'topology.kubernetes.io/region',
                  'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region')
    ORDER BY pv_id, key)
  GROUP BY pv_id),
pinned AS MATERIALIZED (
  SELECT c.pod_id, c.pod, c.claim, CASE WHEN c.binding = 'provision' THEN 'provisioned' ELSE v.name END AS pv,
         c.binding,
         CASE WHEN c.binding = 'provision'
              THEN 'a new volume for the node (StorageClass ' || COALESCE(c.class, '(none)') ||
                   COALESCE(', ' || sc.provisioner, '') || ')'
              WHEN a.txt IS NOT NULL THEN a.txt || COALESCE('; label ' || l.txt, '')
              WHEN l.txt IS NOT NULL THEN 'label ' || l.txt
              ELSE 'nothing (the PV has no node affinity and no zone label)' END AS pinned_by,
         COALESCE(n.name, '#' || c.node_id) AS node
  FROM claim_use c LEFT JOIN pv v ON v.id = c.pv_id
  LEFT JOIN pin_aff a ON a.pv_id = c.pv_id LEFT JOIN pin_label l ON l.pv_id = c.pv_id
  LEFT JOIN storage_class sc ON sc.name = c.class LEFT JOIN node n ON n.id = c.node_id
  WHERE c.binding IN ('bind', 'provision') OR (c.binding = 'bound' AND (a.txt IS NOT NULL OR l.txt IS NOT NULL))),
pv_key AS (
  SELECT id, driver,
         driver || '/' || CASE WHEN source = 'awsElasticBlockStore' AND volume_handle LIKE 'aws://%'
                               THEN substr(volume_handle, length(rtrim(volume_handle, replace(volume_handle, '/', ''))) + 1)
                               ELSE COALESCE(volume_handle, '') END AS volume
  FROM pv
  WHERE driver IS NOT NULL AND source IN ('csi', 'awsElasticBlockStore', 'gcePersistentDisk', 'azureDisk', 'cinder')),
vol_key AS MATERIALIZED (
  SELECT c.node_id, k.driver, k.volume FROM claim_use c JOIN pv_key k ON k.id = c.pv_id
  UNION
  SELECT c.node_id,
         CASE sc.provisioner WHEN 'kubernetes.io/aws-ebs' THEN 'ebs.csi.aws.com'
                             WHEN 'kubernetes.io/gce-pd' THEN 'pd.csi.storage.gke.io'
                             WHEN 'kubernetes.io/azure-disk' THEN 'disk.csi.azure.com'
                             WHEN 'kubernetes.io/cinder' THEN 'cinder.csi.openstack.org'
                             ELSE sc.provisioner END,
         'pvc:' || c.namespace || '/' || c.claim
  FROM claim_use c JOIN storage_class sc ON sc.name = c.class WHERE c.pv_id IS NULL
  UNION
  SELECT node_id, driver, driver || '/' || handle FROM pvol
  WHERE kind = 'intree' AND driver IS NOT NULL
    AND source IN ('awsElasticBlockStore', 'gcePersistentDisk', 'azureDisk', 'cinder')),
attach AS MATERIALIZED (
  SELECT n.name AS node, c.driver, c.allocatable AS lim,
         (SELECT count(*) FROM vol_key k WHERE k.node_id = n.id AND k.driver = c.driver) AS attached,
         (SELECT group_concat(volume, ', ') FROM (SELECT volume FROM vol_key k WHERE k.node_id = n.id AND k.driver = c.driver
                                                 ORDER BY volume)) AS volumes
  FROM csi_node c JOIN node n ON n.name = c.node_name
  WHERE c.allocatable IS NOT NULL)
