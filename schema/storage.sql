-- kplan's storage tables (issue 16): embedded after schema/schema.sql (the
-- Makefile concatenates them), in one section of its own.

------------------------------------------------------------------ storage
-- Storage objects (issue 16), read by the planner's volume plugins
-- (planner/snapshot_storage.c).  This section, from this marker to its end
-- marker, also runs when `import` opens a database made before it existed,
-- and when `plan` first writes volume_decision (kp_db_schema_section), hence
-- IF NOT EXISTS.
-- Columns that came after the section (pv.deleting, pv.attributes_class,
-- pvc.bind_completed, pvc.attributes_class, pod_volume.monitors,
-- workload_volume.monitors, workload_claim_template.attributes_class) are
-- last in their tables: `import` adds them to an older database's tables
-- (importers/import.c), so both have the same columns in the same order.
-- Quantities are bytes.  JSON columns use this schema's forms: a label
-- selector is an array of requirements [["key","In",["v"]]] (NULL: none); a
-- node selector term is {"matchExpressions":[requirements],"matchFields":[...]}.
-- A top-level object replaces the one of its name (and namespace) read by an
-- earlier import; twice in one import is an error, as for every kind.

-- StorageClass (storage.k8s.io/v1, v1beta1).
CREATE TABLE IF NOT EXISTS storage_class(
  id                 INTEGER PRIMARY KEY,
  name               TEXT NOT NULL UNIQUE,
  provisioner        TEXT NOT NULL,
  binding_mode       TEXT NOT NULL DEFAULT 'Immediate',  -- volumeBindingMode: Immediate | WaitForFirstConsumer
  is_default         INTEGER NOT NULL DEFAULT 0,         -- annotation storageclass.kubernetes.io/is-default-class (or its beta form) "true"
  allowed_topologies TEXT,                               -- JSON [{"matchLabelExpressions":[["key","In",[values]]]}], NULL none
  source TEXT, line INTEGER,
  batch_id           INTEGER REFERENCES import_batch(id)
);

-- PersistentVolume (v1).
CREATE TABLE IF NOT EXISTS pv(
  id             INTEGER PRIMARY KEY,
  name           TEXT NOT NULL UNIQUE,
  storage_class  TEXT NOT NULL DEFAULT '',   -- spec.storageClassName ('' none)
  capacity       INTEGER NOT NULL DEFAULT 0, -- spec.capacity.storage, bytes
  access_modes   TEXT NOT NULL DEFAULT '',   -- comma list in spec order (ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod)
  volume_mode    TEXT NOT NULL DEFAULT 'Filesystem',  -- spec.volumeMode: Filesystem | Block
  phase          TEXT NOT NULL DEFAULT 'Available',   -- status.phase: Pending, Available, Bound, Released, Failed
  claim_ns       TEXT,                       -- spec.claimRef.namespace, name, uid (NULL: no claimRef)
  claim_name     TEXT,
  claim_uid      TEXT,
  source         TEXT NOT NULL,              -- the volume source key: csi, local, hostPath, awsElasticBlockStore, gcePersistentDisk, azureDisk, cinder, nfs, ... ('' none given)
  driver         TEXT,                       -- csi.driver; an in-tree source: its CSI driver by CSI migration (ebs.csi.aws.com, pd.csi.storage.gke.io, disk.csi.azure.com, cinder.csi.openstack.org, rbd.csi.ceph.com); NULL otherwise
  volume_handle  TEXT,                       -- what identifies the volume: csi.volumeHandle, or the in-tree disk id (volumeID, pdName, diskURI, pool/image, the iSCSI iqn)
  node_affinity  TEXT,                       -- JSON array of node selector terms of spec.nodeAffinity.required, NULL none
  file TEXT, line INTEGER,                   -- where it was read (`source` is the volume source here)
  batch_id       INTEGER REFERENCES import_batch(id),
  deleting       INTEGER NOT NULL DEFAULT 0, -- metadata.deletionTimestamp set
  attributes_class TEXT                      -- spec.volumeAttributesClassName as given, NULL absent
);
CREATE TABLE IF NOT EXISTS pv_label(         -- metadata.labels (zone/region, legacy failure-domain labels)
  pv_id INTEGER NOT NULL REFERENCES pv(id) ON DELETE CASCADE,
  key   TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(pv_id, key)
);

-- PersistentVolumeClaim (v1), read or generated: a StatefulSet's claims
-- <template>-<set>-<ordinal> (owner StatefulSet) and a generic ephemeral
-- volume's <pod>-<volume> (owner Pod) are made as their controllers make
-- them when no claim of that name was imported (generated = 1).  Generated
-- claims are made again by every import (their ids change).
CREATE TABLE IF NOT EXISTS pvc(
  id             INTEGER PRIMARY KEY,
  namespace      TEXT NOT NULL,
  name           TEXT NOT NULL,
  storage_class  TEXT,                       -- spec.storageClassName; NULL: not set (the default class applies), '': no class
  request        INTEGER NOT NULL DEFAULT 0, -- spec.resources.requests.storage, bytes
  access_modes   TEXT NOT NULL DEFAULT '',   -- comma list as pv.access_modes
  volume_mode    TEXT NOT NULL DEFAULT 'Filesystem',
  volume_name    TEXT,                       -- spec.volumeName (bound or pre-bound), NULL none
  phase          TEXT NOT NULL DEFAULT 'Pending',  -- status.phase: Pending, Bound, Lost
  selector       TEXT,                       -- JSON label selector (spec.selector), NULL none
  selected_node  TEXT,                       -- annotation volume.kubernetes.io/selected-node
  deleting       INTEGER NOT NULL DEFAULT 0, -- metadata.deletionTimestamp set
  owner_kind     TEXT,                       -- StatefulSet or Pod when generated; else the controller ownerReference
  owner_name     TEXT,
  generated      INTEGER NOT NULL DEFAULT 0, -- 1: made by kplan as the controller would (not in the input)
  source TEXT, line INTEGER,                 -- generated: where its StatefulSet or pod was read
  batch_id       INTEGER REFERENCES import_batch(id),
  bind_completed INTEGER NOT NULL DEFAULT 0, -- annotation pv.kubernetes.io/bind-completed present (any value): with volume_name, bound; without, pre-bound.  Generated: 0
  attributes_class TEXT,                     -- spec.volumeAttributesClassName as given, NULL absent (generated: the template's)
  UNIQUE(namespace, name)
);

-- CSINode (storage.k8s.io/v1, v1beta1): one csi_node_info row per object
-- (also one without drivers), one csi_node row per node (metadata.name) and
-- driver; a CSINode read again replaces both.
CREATE TABLE IF NOT EXISTS csi_node_info(
  node_name        TEXT PRIMARY KEY,
  migrated_plugins TEXT NOT NULL DEFAULT '',  -- annotation storage.alpha.kubernetes.io/migrated-plugins verbatim (comma list of in-tree plugins, e.g. kubernetes.io/aws-ebs,kubernetes.io/gce-pd), '' absent
  source TEXT, line INTEGER,
  batch_id         INTEGER REFERENCES import_batch(id)
);
CREATE TABLE IF NOT EXISTS csi_node(
  node_name     TEXT NOT NULL,
  driver        TEXT NOT NULL,               -- spec.drivers[].name
  allocatable   INTEGER,                     -- spec.drivers[].allocatable.count, NULL: no limit
  topology_keys TEXT NOT NULL DEFAULT '',    -- comma list
  source TEXT, line INTEGER,
  batch_id      INTEGER REFERENCES import_batch(id),
  PRIMARY KEY(node_name, driver)
);

-- CSIDriver (storage.k8s.io/v1, v1beta1).
CREATE TABLE IF NOT EXISTS csi_driver(
  name              TEXT PRIMARY KEY,
  attach_required   INTEGER NOT NULL DEFAULT 1,  -- spec.attachRequired (default true)
  storage_capacity  INTEGER NOT NULL DEFAULT 0,  -- spec.storageCapacity: CSIStorageCapacity objects are honoured
  lifecycle_modes   TEXT NOT NULL DEFAULT 'Persistent',  -- spec.volumeLifecycleModes, comma list
  source TEXT, line INTEGER,
  batch_id          INTEGER REFERENCES import_batch(id)
);

-- CSIStorageCapacity (storage.k8s.io/v1, v1beta1).
CREATE TABLE IF NOT EXISTS csi_storage_capacity(
  id                  INTEGER PRIMARY KEY,
  namespace           TEXT NOT NULL,
  name                TEXT NOT NULL,
  storage_class       TEXT NOT NULL,         -- storageClassName
  node_topology       TEXT,                  -- JSON label selector over node labels, NULL: no node
  capacity            INTEGER,               -- bytes, NULL unknown
  maximum_volume_size INTEGER,               -- bytes, NULL unknown
  source TEXT, line INTEGER,
  batch_id            INTEGER REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);

-- A pod's volumes that matter to scheduling, in spec order (pods read and
-- pods generated from a workload: the template's volumes, and a
-- StatefulSet's claim volumes).  Other volume kinds (configMap, emptyDir,
-- secret, ...) are not stored.
CREATE TABLE IF NOT EXISTS pod_volume(
  pod_id        INTEGER NOT NULL REFERENCES pod(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,               -- volumes[].name
  kind          TEXT NOT NULL,               -- pvc | ephemeral | intree | csi (inline CSI volume)
  claim         TEXT,                        -- the PVC name (pvc: claimName; ephemeral: <pod>-<volume>)
  read_only     INTEGER NOT NULL DEFAULT 0,  -- persistentVolumeClaim.readOnly, or the source's readOnly
  source        TEXT,                        -- intree: the source key (gcePersistentDisk, awsElasticBlockStore, azureDisk, cinder, rbd, iscsi)
  driver        TEXT,                        -- intree: its CSI driver by migration (NULL for iscsi); csi: the inline driver
  volume_handle TEXT,                        -- intree: the disk id (pdName, volumeID, diskURI, pool/image, the iSCSI iqn)
  claim_spec    TEXT,                        -- ephemeral: JSON of volumeClaimTemplate.spec (the claim kplan generates): {storage_class, request, access_modes, volume_mode, selector, attributes_class}
  monitors      TEXT,                        -- rbd: the monitors list joined with ',' (VolumeRestrictions compares them); NULL for other kinds
  PRIMARY KEY(pod_id, name)
);

-- A workload template's volumes, as pod_volume (ephemeral claims are named
-- when a pod is generated); copied to the pods generated from it.
CREATE TABLE IF NOT EXISTS workload_volume(
  workload_id   INTEGER NOT NULL REFERENCES workload(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  kind          TEXT NOT NULL,
  claim         TEXT,                        -- pvc only
  read_only     INTEGER NOT NULL DEFAULT 0,
  source        TEXT,
  driver        TEXT,
  volume_handle TEXT,
  claim_spec    TEXT,
  monitors      TEXT,
  PRIMARY KEY(workload_id, name)
);

-- A StatefulSet's volumeClaimTemplates: claims <name>-<set>-<ordinal> are
-- generated from them, one per replica (pvc.generated).
CREATE TABLE IF NOT EXISTS workload_claim_template(
  workload_id   INTEGER NOT NULL REFERENCES workload(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,               -- metadata.name
  storage_class TEXT,                        -- as pvc.storage_class (NULL: not set)
  request       INTEGER NOT NULL DEFAULT 0,
  access_modes  TEXT NOT NULL DEFAULT '',
  volume_mode   TEXT NOT NULL DEFAULT 'Filesystem',
  selector      TEXT,
  seq           INTEGER NOT NULL DEFAULT 0,  -- spec order
  attributes_class TEXT,                     -- spec.volumeAttributesClassName (NULL absent), given to the claims generated
  PRIMARY KEY(workload_id, name)
);

-- VolumeBinding's decisions in a run (its Reserve, for a batch plan): a
-- claim of a pod the run placed bound to an available PersistentVolume, or
-- provisioned for the pod's node (the volume.kubernetes.io/selected-node
-- annotation kube would set).  Claims already bound are not repeated here:
-- their PV is pvc.volume_name.  Later pods of the run using the claim see
-- the decision (the PV taken, the claim pinned to the node).
CREATE TABLE IF NOT EXISTS volume_decision(
  run_id    INTEGER NOT NULL REFERENCES run(id),
  seq       INTEGER NOT NULL,             -- order within the run
  pod_id    INTEGER NOT NULL,             -- the pod whose placement decided it
  claim_id  INTEGER NOT NULL,             -- pvc.id
  namespace TEXT NOT NULL,
  claim     TEXT NOT NULL,
  action    TEXT NOT NULL,                -- bind (an existing PV) | provision
  pv        TEXT,                         -- bind: the PV's name; provision: NULL
  node_id   INTEGER NOT NULL,             -- the node the pod was placed on
  PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;
-- end of storage
