-- kplan's Dynamic Resource Allocation tables (issue 17): embedded after
-- schema/schema.sql and schema/storage.sql (the Makefile concatenates them),
-- in one section of its own.

------------------------------------------------------------------ dra
-- DRA objects (resource.k8s.io), imported for the DynamicResources plugin
-- and its structured allocator; the planner does not read them yet
-- (docs/supported-features.md).  This section, from this marker to its end
-- marker, also runs when `import` opens a database made before it existed
-- (kp_db_schema_section), hence IF NOT EXISTS.
--
-- Versions: resource.k8s.io/v1 and v1beta2 (one shape) and v1beta1,
-- converted as the API server converts v1beta1 to v1: a ResourceSlice
-- device's `basic` fields are the device's own; a claim request's
-- deviceClassName, selectors, allocationMode, count, adminAccess,
-- tolerations and capacity (any of them set) become its `exactly`.  Then
-- defaulted as the API server defaults: allocationMode ExactCount, count 1,
-- a toleration's operator Equal.  api_version keeps the version read.
-- Qualified names: an attribute or capacity name without a domain ("model")
-- is in the driver's domain, as kube's QualifiedName says; rows hold the
-- domain and the name apart (gpu.example.com, model).
-- Quantities (capacity, counters, consumed capacity, request policies,
-- capacity requests) are integers in their base unit, rounded up as
-- Quantity.Value() rounds; `quantity` keeps the text as written, for exact
-- (fractional) comparisons.
-- CEL expressions (selectors) are stored as written, not evaluated, with
-- `path` (the field, as written in its file), and where their text starts
-- in the file of their object: expr_line, expr_col (past an opening quote);
-- expr_block = 1 for a literal block scalar (`|`), whose line k is the
-- file's line expr_line + k, at column expr_col.  The view dra_cel lists
-- them all.
-- Node selectors are JSON arrays of node selector terms as pv.node_affinity:
-- [{"matchExpressions":[["key","In",["v"]]],"matchFields":[...]}].  Lists
-- kept whole (configs, tolerations of a result) are JSON as written.
-- A top-level object replaces the one of its name (and namespace) read by
-- an earlier import, child rows included; twice in one import is an error.

-- DeviceClass.
CREATE TABLE IF NOT EXISTS device_class(
  id                     INTEGER PRIMARY KEY,
  name                   TEXT NOT NULL UNIQUE,
  extended_resource_name TEXT,        -- spec.extendedResourceName, NULL absent (kube's implicit one is deviceclass.resource.kubernetes.io/<name>)
  config                 TEXT,        -- spec.config as JSON ([{"opaque":{"driver":..,"parameters":{..}}}]), NULL absent
  api_version            TEXT NOT NULL,
  source TEXT, line INTEGER,
  batch_id               INTEGER REFERENCES import_batch(id)
);
CREATE TABLE IF NOT EXISTS device_class_selector(   -- spec.selectors, in order
  class_id   INTEGER NOT NULL REFERENCES device_class(id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,
  expression TEXT NOT NULL,                         -- cel.expression as written
  path       TEXT NOT NULL,                         -- spec.selectors[i].cel.expression
  expr_line  INTEGER, expr_col INTEGER, expr_block INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(class_id, seq)
);

-- ResourceSlice: one row per slice, its devices in slice_device.  Exactly
-- one of node_name, node_selector, all_nodes, per_device_node_selection is
-- set (with the last, each device sets one of its own three).  Only the
-- highest pool_generation of a (driver, pool) counts; a pool is complete
-- when that generation has pool_slice_count slices.
CREATE TABLE IF NOT EXISTS resource_slice(
  id                        INTEGER PRIMARY KEY,
  name                      TEXT NOT NULL UNIQUE,
  driver                    TEXT NOT NULL,
  pool                      TEXT NOT NULL,            -- spec.pool.name
  pool_generation           INTEGER NOT NULL DEFAULT 0,
  pool_slice_count          INTEGER NOT NULL,         -- spec.pool.resourceSliceCount
  node_name                 TEXT,                     -- spec.nodeName (node-local devices)
  node_selector             TEXT,                     -- spec.nodeSelector as JSON terms (one term)
  all_nodes                 INTEGER NOT NULL DEFAULT 0,
  per_device_node_selection INTEGER NOT NULL DEFAULT 0,
  api_version               TEXT NOT NULL,
  source TEXT, line INTEGER,
  batch_id                  INTEGER REFERENCES import_batch(id)
);
CREATE TABLE IF NOT EXISTS slice_counter(           -- spec.sharedCounters: counter sets, one row per counter
  slice_id    INTEGER NOT NULL REFERENCES resource_slice(id) ON DELETE CASCADE,
  counter_set TEXT NOT NULL,                        -- sharedCounters[].name
  counter     TEXT NOT NULL,
  value       INTEGER NOT NULL,
  quantity    TEXT NOT NULL,
  PRIMARY KEY(slice_id, counter_set, counter)
);
CREATE TABLE IF NOT EXISTS slice_device(            -- spec.devices (v1beta1: name and basic)
  id                         INTEGER PRIMARY KEY,
  slice_id                   INTEGER NOT NULL REFERENCES resource_slice(id) ON DELETE CASCADE,
  name                       TEXT NOT NULL,
  seq                        INTEGER NOT NULL,      -- order in the slice
  allow_multiple_allocations INTEGER NOT NULL DEFAULT 0,  -- consumable capacity: several claims may share it
  binds_to_node              INTEGER NOT NULL DEFAULT 0,
  node_name                  TEXT,                  -- with per_device_node_selection: nodeName
  node_selector              TEXT,                  -- ... nodeSelector (JSON terms)
  all_nodes                  INTEGER NOT NULL DEFAULT 0,  -- ... allNodes
  UNIQUE(slice_id, name)
);
CREATE TABLE IF NOT EXISTS device_attribute(
  device_id INTEGER NOT NULL REFERENCES slice_device(id) ON DELETE CASCADE,
  domain    TEXT NOT NULL,                          -- the name's domain; the driver's for a name without one
  name      TEXT NOT NULL,
  type      TEXT NOT NULL,                          -- int | bool | string | version
  value,                                            -- int: INTEGER; bool: 0/1; string, version: TEXT
  PRIMARY KEY(device_id, domain, name)
);
CREATE TABLE IF NOT EXISTS device_capacity(
  device_id     INTEGER NOT NULL REFERENCES slice_device(id) ON DELETE CASCADE,
  domain        TEXT NOT NULL,
  name          TEXT NOT NULL,
  value         INTEGER NOT NULL,
  quantity      TEXT NOT NULL,
  -- requestPolicy (only with allow_multiple_allocations), NULL where not given
  policy_default      INTEGER,
  policy_min          INTEGER,                      -- validRange
  policy_max          INTEGER,
  policy_step         INTEGER,
  policy_valid_values TEXT,                         -- validValues: JSON array of integers, ascending
  PRIMARY KEY(device_id, domain, name)
);
CREATE TABLE IF NOT EXISTS device_counter(          -- consumesCounters, one row per counter
  device_id   INTEGER NOT NULL REFERENCES slice_device(id) ON DELETE CASCADE,
  counter_set TEXT NOT NULL,                        -- a sharedCounters name of the pool
  counter     TEXT NOT NULL,
  value       INTEGER NOT NULL,
  quantity    TEXT NOT NULL,
  PRIMARY KEY(device_id, counter_set, counter)
);
CREATE TABLE IF NOT EXISTS device_taint(
  device_id  INTEGER NOT NULL REFERENCES slice_device(id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,
  key        TEXT NOT NULL,
  value      TEXT NOT NULL DEFAULT '',
  effect     TEXT NOT NULL,                         -- None | NoSchedule | NoExecute; another kept as written (kube: treat it like None)
  time_added INTEGER,                               -- timeAdded, Unix seconds
  PRIMARY KEY(device_id, seq)
);

-- The spec of a ResourceClaim, or the claim of a ResourceClaimTemplate
-- (spec.spec): spec.devices.  The claims kplan generates from a template
-- share its spec row.
CREATE TABLE IF NOT EXISTS claim_spec(
  id        INTEGER PRIMARY KEY,
  kind      TEXT NOT NULL,                          -- ResourceClaim | ResourceClaimTemplate: whose it is
  namespace TEXT NOT NULL,
  name      TEXT NOT NULL,
  config    TEXT,                                   -- devices.config as JSON ([{"requests":[..],"opaque":{..}}]), NULL absent
  source TEXT, line INTEGER
);
-- Its requests, v1's form: one row per request (subrequest '') and one per
-- subrequest of a firstAvailable request.  An `exactly` request's row has
-- its fields; a firstAvailable request's row has first_available = 1 and
-- NULL fields, its subrequests (in priority order, sub_seq 1, 2, ...) have
-- theirs.
CREATE TABLE IF NOT EXISTS claim_request(
  spec_id         INTEGER NOT NULL REFERENCES claim_spec(id) ON DELETE CASCADE,
  request         TEXT NOT NULL,                    -- requests[].name
  subrequest      TEXT NOT NULL DEFAULT '',         -- firstAvailable[].name
  seq             INTEGER NOT NULL,                 -- the request's place in the claim
  sub_seq         INTEGER NOT NULL DEFAULT 0,
  first_available INTEGER NOT NULL DEFAULT 0,
  device_class    TEXT,                             -- deviceClassName
  allocation_mode TEXT,                             -- ExactCount | All
  count           INTEGER,                          -- ExactCount: count (default 1); All: 0
  admin_access    INTEGER NOT NULL DEFAULT 0,       -- exactly.adminAccess
  PRIMARY KEY(spec_id, request, subrequest)
);
CREATE TABLE IF NOT EXISTS claim_request_selector(
  spec_id    INTEGER NOT NULL REFERENCES claim_spec(id) ON DELETE CASCADE,
  request    TEXT NOT NULL,
  subrequest TEXT NOT NULL DEFAULT '',
  seq        INTEGER NOT NULL,
  expression TEXT NOT NULL,
  path       TEXT NOT NULL,                         -- as written: spec.devices.requests[0].exactly.selectors[0].cel.expression
  expr_line  INTEGER, expr_col INTEGER, expr_block INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(spec_id, request, subrequest, seq)
);
CREATE TABLE IF NOT EXISTS claim_request_toleration(
  spec_id            INTEGER NOT NULL REFERENCES claim_spec(id) ON DELETE CASCADE,
  request            TEXT NOT NULL,
  subrequest         TEXT NOT NULL DEFAULT '',
  seq                INTEGER NOT NULL,
  key                TEXT NOT NULL DEFAULT '',      -- '' matches every key
  operator           TEXT NOT NULL DEFAULT 'Equal', -- Equal | Exists
  value              TEXT NOT NULL DEFAULT '',
  effect             TEXT NOT NULL DEFAULT '',      -- '' matches every effect; None | NoSchedule | NoExecute
  toleration_seconds INTEGER,
  PRIMARY KEY(spec_id, request, subrequest, seq)
);
CREATE TABLE IF NOT EXISTS claim_request_capacity(  -- capacity.requests
  spec_id    INTEGER NOT NULL REFERENCES claim_spec(id) ON DELETE CASCADE,
  request    TEXT NOT NULL,
  subrequest TEXT NOT NULL DEFAULT '',
  name       TEXT NOT NULL,                         -- as written: a name without a domain is the candidate device's driver's
  value      INTEGER NOT NULL,
  quantity   TEXT NOT NULL,
  PRIMARY KEY(spec_id, request, subrequest, name)
);
CREATE TABLE IF NOT EXISTS claim_constraint(        -- devices.constraints
  spec_id            INTEGER NOT NULL REFERENCES claim_spec(id) ON DELETE CASCADE,
  seq                INTEGER NOT NULL,
  requests           TEXT,                          -- JSON array of request (or request/subrequest) names, NULL: every request
  match_attribute    TEXT,                          -- exactly one of these two (a domain/name)
  distinct_attribute TEXT,
  PRIMARY KEY(spec_id, seq)
);

-- ResourceClaim, read or generated: a pod's claim made from a
-- ResourceClaimTemplate (resourceClaimTemplateName) as the resourceclaim
-- controller makes it — named <pod>-<claim>-<5 characters> (both parts cut
-- to fit 57 characters when longer, as the controller cuts them; the five
-- characters deterministic, from a hash of namespace, pod and claim:
-- kp_claim_name, common/names.c), owned by the pod, annotated with the pod's
-- claim name, the template's spec — unless a claim of that name was
-- imported, the pod's status names its claim, or an imported claim owned by
-- the pod carries that claim name (generated = 0 then).  Generated claims
-- are made again by every import (claims nobody wants any more go); none
-- for pods that succeeded or failed.
CREATE TABLE IF NOT EXISTS resource_claim(
  id            INTEGER PRIMARY KEY,
  namespace     TEXT NOT NULL,
  name          TEXT NOT NULL,
  uid           TEXT,
  spec_id       INTEGER NOT NULL REFERENCES claim_spec(id),
  generated     INTEGER NOT NULL DEFAULT 0,         -- 1: made by kplan from a template (not in the input)
  template      TEXT,                               -- generated: the ResourceClaimTemplate
  pod_claim     TEXT,                               -- annotation resource.kubernetes.io/pod-claim-name (generated: the pod's resourceClaims[].name)
  owner_kind    TEXT,                               -- the controller ownerReference (generated: Pod)
  owner_name    TEXT,
  deleting      INTEGER NOT NULL DEFAULT 0,         -- metadata.deletionTimestamp set
  allocated     INTEGER NOT NULL DEFAULT 0,         -- status.allocation set: its devices are in use
  allocation_node_selector TEXT,                    -- status.allocation.nodeSelector as JSON terms (where the pods using it must run), NULL none
  api_version   TEXT NOT NULL,
  source TEXT, line INTEGER,                        -- generated: where its pod was read
  batch_id      INTEGER REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);
-- the claims a pod owns, by the pod's claim name (findPodResourceClaim)
CREATE INDEX IF NOT EXISTS resource_claim_by_owner ON resource_claim(namespace, owner_name, pod_claim);
CREATE TABLE IF NOT EXISTS resource_claim_result(   -- status.allocation.devices.results
  claim_id     INTEGER NOT NULL REFERENCES resource_claim(id) ON DELETE CASCADE,
  seq          INTEGER NOT NULL,
  request      TEXT NOT NULL,                       -- request, or request/subrequest
  driver       TEXT NOT NULL,
  pool         TEXT NOT NULL,
  device       TEXT NOT NULL,
  admin_access INTEGER NOT NULL DEFAULT 0,
  share_id     TEXT,                                -- shareID (a share of a device allowing multiple allocations)
  tolerations  TEXT,                                -- the tolerations copied into the result, JSON as written, NULL none
  PRIMARY KEY(claim_id, seq)
);
CREATE TABLE IF NOT EXISTS resource_claim_consumed( -- results[].consumedCapacity
  claim_id INTEGER NOT NULL REFERENCES resource_claim(id) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,                        -- the result's
  domain   TEXT NOT NULL,                           -- the result's driver for a name without a domain
  name     TEXT NOT NULL,
  value    INTEGER NOT NULL,
  quantity TEXT NOT NULL,
  PRIMARY KEY(claim_id, seq, domain, name)
);
CREATE TABLE IF NOT EXISTS resource_claim_reserved( -- status.reservedFor: the consumers (pods) the claim is reserved for
  claim_id  INTEGER NOT NULL REFERENCES resource_claim(id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,
  api_group TEXT NOT NULL DEFAULT '',
  resource  TEXT NOT NULL,                          -- pods
  name      TEXT NOT NULL,
  uid       TEXT NOT NULL,
  PRIMARY KEY(claim_id, seq)
);

-- ResourceClaimTemplate: its claim spec (spec.spec).
CREATE TABLE IF NOT EXISTS resource_claim_template(
  id          INTEGER PRIMARY KEY,
  namespace   TEXT NOT NULL,
  name        TEXT NOT NULL,
  spec_id     INTEGER NOT NULL REFERENCES claim_spec(id),
  api_version TEXT NOT NULL,
  source TEXT, line INTEGER,
  batch_id    INTEGER REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);

-- A pod's spec.resourceClaims, in spec order (pods read, and pods generated
-- from a workload: their template's), with the claim each names in the
-- pod's namespace: resourceClaimName; for a template, the claim the pod's
-- status.resourceClaimStatuses names (none: no claim was needed), else an
-- imported claim owned by the pod with its claim name, else the name kplan
-- generates (resource_claim above).
CREATE TABLE IF NOT EXISTS pod_resource_claim(
  pod_id     INTEGER NOT NULL REFERENCES pod(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,                         -- resourceClaims[].name
  seq        INTEGER NOT NULL,
  claim_name TEXT,                                  -- resourceClaimName
  template   TEXT,                                  -- resourceClaimTemplateName
  claim      TEXT,                                  -- the ResourceClaim used; NULL: none needed
  claim_from TEXT NOT NULL,                         -- spec | status | owned | generated | none
  containers TEXT,                                  -- JSON [{"container":C,"request":R|null}] of the containers' resources.claims naming it, NULL none
  PRIMARY KEY(pod_id, name)
);
-- A workload template's resourceClaims, as pod_resource_claim; copied to
-- the pods generated from it (claims of templates named per pod).
CREATE TABLE IF NOT EXISTS workload_resource_claim(
  workload_id INTEGER NOT NULL REFERENCES workload(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  claim_name  TEXT,
  template    TEXT,
  containers  TEXT,
  PRIMARY KEY(workload_id, name)
);

-- Every CEL expression read, with its object and where it is: what a CEL
-- pass reports as FILE:LINE:COL: KIND NAMESPACE/NAME: PATH.
CREATE VIEW IF NOT EXISTS dra_cel AS
SELECT 'DeviceClass' AS kind, NULL AS namespace, c.name AS name, s.path AS path, s.expression AS expression,
       c.source AS file, s.expr_line AS line, s.expr_col AS col, s.expr_block AS block
FROM device_class_selector s JOIN device_class c ON c.id = s.class_id
UNION ALL
SELECT p.kind, p.namespace, p.name, s.path, s.expression, p.source, s.expr_line, s.expr_col, s.expr_block
FROM claim_request_selector s JOIN claim_spec p ON p.id = s.spec_id;

-- The devices a plan run allocated (the DynamicResources plugin's Reserve,
-- for a batch plan): one row per device of each claim a pod placed by the
-- run allocated; later pods of the run see them in use and the claim
-- allocated.  Claims allocated before the run keep resource_claim_result.
CREATE TABLE IF NOT EXISTS dra_allocation(
  run_id       INTEGER NOT NULL REFERENCES run(id),
  seq          INTEGER NOT NULL,          -- order within the run
  pod_id       INTEGER NOT NULL,          -- the pod whose placement allocated it
  claim_id     INTEGER NOT NULL,          -- resource_claim.id
  namespace    TEXT NOT NULL,
  claim        TEXT NOT NULL,
  request      TEXT NOT NULL,             -- the request, or request/subrequest (firstAvailable)
  driver       TEXT NOT NULL,
  pool         TEXT NOT NULL,
  device       TEXT NOT NULL,
  admin_access INTEGER NOT NULL DEFAULT 0,
  node_id      INTEGER NOT NULL,          -- the node the pod was placed on
  consumed     TEXT,                      -- a share of a device allowing multiple allocations: what it consumes,
                                          -- JSON [[domain, name, value], ...] (base units); NULL: the whole device
  PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;

-- GPU fragmentation after a plan run (issue 18; planner/gpu_frag.c,
-- docs/gpu-devices.md): one row per node with GPUs — node-local devices
-- that allow multiple allocations and have a capacity, each counted as 1000
-- milli.  frag_milli is the FGD paper's fragmented GPU milli for the run's
-- typical pod shapes (gpu_typical_shape); free_milli - frag_milli is the
-- part the typical shapes can still use.
CREATE TABLE IF NOT EXISTS gpu_fragmentation(
  run_id     INTEGER NOT NULL REFERENCES run(id),
  node_id    INTEGER NOT NULL,
  gpus       INTEGER NOT NULL,
  milli      INTEGER NOT NULL,             -- gpus * 1000
  free_milli INTEGER NOT NULL,             -- not allocated after the run
  frag_milli REAL NOT NULL,                -- of free_milli, fragmented
  cpu_left   INTEGER NOT NULL,             -- milli cpu not requested
  free_list  TEXT NOT NULL,                -- JSON: each GPU's free milli, in device order
  PRIMARY KEY(run_id, node_id)
) WITHOUT ROWID;
-- The typical pod shapes the measure weighs (the most frequent shapes of
-- the run's pods, cpu-only ones included, covering 95 % of them).
CREATE TABLE IF NOT EXISTS gpu_typical_shape(
  run_id  INTEGER NOT NULL REFERENCES run(id),
  seq     INTEGER NOT NULL,                -- most frequent first
  cpu     INTEGER NOT NULL,                -- milli
  gpus    INTEGER NOT NULL,                -- 0: a cpu-only shape
  milli   INTEGER NOT NULL,                -- on each GPU
  pods    INTEGER NOT NULL,
  weight  REAL NOT NULL,
  example TEXT,                            -- a pod of the shape (namespace/name)
  PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;
-- end of dra
