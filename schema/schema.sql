-- schema.sql — kplan's database: inputs (what was imported), normalised.
--
-- Embedded into the binary at build time (build/gen/schema_sql.c); `kplan init`
-- runs it once in a new file.  PRAGMA user_version holds KP_SCHEMA_VERSION
-- (common/db.h); a database with a newer version is refused.
--
-- Units: cpu in millicores, memory and storage in bytes, everything else in its
-- base unit; times are Unix seconds (use datetime(x, 'unixepoch')).
-- Label selectors are stored as JSON arrays of requirements
--   [["app","In",["web"]],["tier","Exists",[]]]
-- where matchLabels {k: v} became [k, "In", [v]]; NULL is a null selector
-- (matches nothing), [] an empty one (matches everything).
--
-- Scheduling classes: the scheduling-relevant spec of a pod (namespace,
-- scheduler, priority, requests, containers, node selector, affinity,
-- tolerations, spread constraints, host ports) lives once per distinct spec in
-- pod_class and the class_* tables; identical replicas share one class.
-- Labels, names and bindings are per pod.  The pod_* views join them back.

CREATE TABLE meta(
  key   TEXT PRIMARY KEY,
  value TEXT
) WITHOUT ROWID;

CREATE TABLE import_batch(
  id         INTEGER PRIMARY KEY,
  started    TEXT NOT NULL,        -- UTC, RFC 3339
  sources    TEXT NOT NULL,        -- JSON array of the paths given
  kplan      TEXT NOT NULL,        -- kplan version
  counts     TEXT                  -- JSON object: objects per kind, skipped (per kind), skipped_api (per 'apiVersion Kind'), invalid
);

CREATE TABLE namespace(
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE,
  source   TEXT, line INTEGER,
  batch_id INTEGER NOT NULL REFERENCES import_batch(id)
);
CREATE TABLE namespace_label(
  namespace_id INTEGER NOT NULL REFERENCES namespace(id),
  key   TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(namespace_id, key)
) WITHOUT ROWID;

------------------------------------------------------------------ nodes

CREATE TABLE node(
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL UNIQUE,
  uid           TEXT,
  unschedulable INTEGER NOT NULL DEFAULT 0,   -- spec.unschedulable (cordoned)
  created       INTEGER,
  source        TEXT, line INTEGER,           -- where it was read
  batch_id      INTEGER NOT NULL REFERENCES import_batch(id)
);
CREATE TABLE node_resource(
  node_id     INTEGER NOT NULL REFERENCES node(id),
  resource    TEXT NOT NULL,                  -- cpu, memory, pods, nvidia.com/gpu, hugepages-2Mi, ...
  allocatable INTEGER,                        -- status.allocatable (what the scheduler uses)
  capacity    INTEGER,                        -- status.capacity
  PRIMARY KEY(node_id, resource)
) WITHOUT ROWID;
CREATE TABLE node_label(
  node_id INTEGER NOT NULL REFERENCES node(id),
  key     TEXT NOT NULL,
  value   TEXT NOT NULL,
  PRIMARY KEY(node_id, key)
) WITHOUT ROWID;
CREATE INDEX node_label_key_value ON node_label(key, value);
CREATE TABLE node_taint(
  node_id INTEGER NOT NULL REFERENCES node(id),
  seq     INTEGER NOT NULL,                   -- order in spec.taints
  key     TEXT NOT NULL,
  value   TEXT NOT NULL DEFAULT '',
  effect  TEXT NOT NULL,                      -- NoSchedule | PreferNoSchedule | NoExecute
  PRIMARY KEY(node_id, seq)
) WITHOUT ROWID;
CREATE TABLE node_image(
  node_id    INTEGER NOT NULL REFERENCES node(id),
  seq        INTEGER NOT NULL,                -- index in status.images
  name       TEXT NOT NULL,                   -- one row per name of the image
  size_bytes INTEGER NOT NULL,
  PRIMARY KEY(node_id, seq, name)
) WITHOUT ROWID;
CREATE INDEX node_image_name ON node_image(name);

------------------------------------------------------------------ pods

CREATE TABLE pod_class(
  id                INTEGER PRIMARY KEY,      -- 63-bit hash of spec
  spec              TEXT NOT NULL,            -- canonical JSON of everything below
  namespace         TEXT NOT NULL,
  scheduler_name    TEXT NOT NULL,
  priority          INTEGER,                  -- spec.priority when given
  priority_class    TEXT,                     -- spec.priorityClassName
  preemption_policy TEXT,                     -- spec.preemptionPolicy when given
  nonzero_cpu       INTEGER NOT NULL,         -- scoring request (100m default per container)
  nonzero_memory    INTEGER NOT NULL,         -- scoring request (200Mi default per container)
  scheduling_gates  INTEGER NOT NULL DEFAULT 0,
  pvc_volumes       INTEGER NOT NULL DEFAULT 0,
  host_network      INTEGER NOT NULL DEFAULT 0,
  has_required_node_affinity INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE class_request(                   -- effective requests (semantics §4.1)
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  resource TEXT NOT NULL,
  value    INTEGER NOT NULL,
  PRIMARY KEY(class_id, resource)
) WITHOUT ROWID;
CREATE TABLE class_container(
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  seq      INTEGER NOT NULL,
  kind     TEXT NOT NULL,                     -- app | init | sidecar
  name     TEXT,
  image    TEXT,
  requests TEXT,                              -- JSON object resource -> amount, as given (limits filled in)
  PRIMARY KEY(class_id, seq)
) WITHOUT ROWID;
CREATE TABLE class_node_selector(
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  key      TEXT NOT NULL,
  value    TEXT NOT NULL,
  PRIMARY KEY(class_id, key)
) WITHOUT ROWID;
CREATE TABLE class_toleration(
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  seq      INTEGER NOT NULL,
  key      TEXT NOT NULL DEFAULT '',          -- '' with Exists: every key
  operator TEXT NOT NULL DEFAULT 'Equal',     -- Equal | Exists | Gt | Lt (TaintTolerationComparisonOperators)
  value    TEXT NOT NULL DEFAULT '',
  effect   TEXT NOT NULL DEFAULT '',          -- '' = every effect
  seconds  INTEGER,                           -- tolerationSeconds
  PRIMARY KEY(class_id, seq)
) WITHOUT ROWID;
CREATE TABLE class_node_term(                 -- node affinity terms
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  required INTEGER NOT NULL,                  -- 1 nodeSelectorTerms, 0 preferred
  term     INTEGER NOT NULL,
  weight   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY(class_id, required, term)
) WITHOUT ROWID;
CREATE TABLE class_node_expr(
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  required INTEGER NOT NULL,
  term     INTEGER NOT NULL,
  seq      INTEGER NOT NULL,
  field    INTEGER NOT NULL DEFAULT 0,        -- 1 matchFields (metadata.name), 0 matchExpressions
  key      TEXT NOT NULL,
  operator TEXT NOT NULL,                     -- In NotIn Exists DoesNotExist Gt Lt
  vals     TEXT NOT NULL DEFAULT '[]',        -- JSON array of strings
  PRIMARY KEY(class_id, required, term, seq)
) WITHOUT ROWID;
CREATE TABLE class_pod_affinity(
  class_id     INTEGER NOT NULL REFERENCES pod_class(id),
  seq          INTEGER NOT NULL,
  anti         INTEGER NOT NULL,              -- 0 podAffinity, 1 podAntiAffinity
  required     INTEGER NOT NULL,
  weight       INTEGER NOT NULL DEFAULT 0,
  topology_key TEXT NOT NULL,
  selector     TEXT,                          -- label selector JSON (NULL: matches nothing)
  namespaces   TEXT NOT NULL DEFAULT '[]',    -- JSON array
  ns_selector  TEXT,                          -- label selector JSON or NULL
  match_label_keys    TEXT NOT NULL DEFAULT '[]',
  mismatch_label_keys TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY(class_id, seq)
) WITHOUT ROWID;
CREATE TABLE class_spread(
  class_id     INTEGER NOT NULL REFERENCES pod_class(id),
  seq          INTEGER NOT NULL,
  max_skew     INTEGER NOT NULL,
  topology_key TEXT NOT NULL,
  when_unsatisfiable   TEXT NOT NULL,         -- DoNotSchedule | ScheduleAnyway
  selector     TEXT,
  min_domains  INTEGER,                       -- NULL = 1
  node_affinity_policy TEXT NOT NULL DEFAULT 'Honor',
  node_taints_policy   TEXT NOT NULL DEFAULT 'Ignore',
  match_label_keys     TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY(class_id, seq)
) WITHOUT ROWID;
CREATE TABLE class_port(
  class_id  INTEGER NOT NULL REFERENCES pod_class(id),
  seq       INTEGER NOT NULL,
  host_ip   TEXT NOT NULL DEFAULT '0.0.0.0',
  protocol  TEXT NOT NULL DEFAULT 'TCP',
  host_port INTEGER NOT NULL,
  container_port INTEGER,
  sidecar   INTEGER NOT NULL DEFAULT 0,         -- a restartable init container's: counted from kube 1.34
  PRIMARY KEY(class_id, seq)
) WITHOUT ROWID;

CREATE TABLE pod(
  id             INTEGER PRIMARY KEY,         -- import order; stable when re-imported
  namespace      TEXT NOT NULL,
  name           TEXT NOT NULL,
  uid            TEXT,
  class_id       INTEGER NOT NULL REFERENCES pod_class(id),
  node_name      TEXT,                        -- spec.nodeName; NULL = pending
  phase          TEXT NOT NULL DEFAULT 'Pending',
  created        INTEGER,                     -- metadata.creationTimestamp
  start_time     INTEGER,                     -- status.startTime
  terminating    INTEGER NOT NULL DEFAULT 0,  -- metadata.deletionTimestamp set
  nominated_node TEXT,                        -- status.nominatedNodeName
  owner_kind     TEXT,                        -- controller ownerReference
  owner_name     TEXT,
  owner_uid      TEXT,
  workload_id    INTEGER REFERENCES workload(id), -- set when generated from a workload template
  daemon_node    TEXT,                        -- DaemonSet pods: the one node the controller made it for
  source         TEXT, line INTEGER,
  batch_id       INTEGER NOT NULL REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);
CREATE INDEX pod_by_class ON pod(class_id);
CREATE INDEX pod_by_node ON pod(node_name);
CREATE INDEX pod_by_owner ON pod(namespace, owner_kind, owner_name);
CREATE INDEX pod_by_workload ON pod(workload_id);
CREATE TABLE pod_label(
  pod_id INTEGER NOT NULL REFERENCES pod(id),
  key    TEXT NOT NULL,
  value  TEXT NOT NULL,
  PRIMARY KEY(pod_id, key)
) WITHOUT ROWID;
CREATE INDEX pod_label_key_value ON pod_label(key, value);

------------------------------------------------------------------ other kinds

CREATE TABLE priority_class(
  id                INTEGER PRIMARY KEY,
  name              TEXT NOT NULL UNIQUE,
  value             INTEGER NOT NULL,
  global_default    INTEGER NOT NULL DEFAULT 0,
  preemption_policy TEXT NOT NULL DEFAULT 'PreemptLowerPriority',
  description       TEXT,
  source TEXT, line INTEGER,
  batch_id INTEGER NOT NULL REFERENCES import_batch(id)
);

CREATE TABLE pdb(
  id              INTEGER PRIMARY KEY,
  namespace       TEXT NOT NULL,
  name            TEXT NOT NULL,
  api_version     TEXT NOT NULL,
  min_available   TEXT,                       -- integer or percentage, as given
  max_unavailable TEXT,
  selector        TEXT,                       -- label selector JSON
  has_status      INTEGER NOT NULL DEFAULT 0,
  disruptions_allowed INTEGER,                -- status.disruptionsAllowed
  current_healthy INTEGER, desired_healthy INTEGER, expected_pods INTEGER,
  disrupted_pods  TEXT NOT NULL DEFAULT '[]', -- JSON array of pod names (status.disruptedPods)
  source TEXT, line INTEGER,
  batch_id INTEGER NOT NULL REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);

CREATE TABLE service(
  id        INTEGER PRIMARY KEY,
  namespace TEXT NOT NULL,
  name      TEXT NOT NULL,
  selector  TEXT,                             -- label selector JSON; NULL when the Service has none
  source TEXT, line INTEGER,
  batch_id INTEGER NOT NULL REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);

-- Deployment, ReplicaSet, StatefulSet, Job, ReplicationController, DaemonSet.
-- Pods that do not exist yet are generated from the template (pod.workload_id);
-- DaemonSet pods are created by `plan`, one per eligible node.
CREATE TABLE workload(
  id           INTEGER PRIMARY KEY,
  kind         TEXT NOT NULL,
  namespace    TEXT NOT NULL,
  name         TEXT NOT NULL,
  uid          TEXT,
  api_version  TEXT,
  replicas     INTEGER,                       -- desired pods; NULL for DaemonSet
  selector     TEXT,                          -- label selector JSON
  owner_kind   TEXT, owner_name TEXT,         -- e.g. a ReplicaSet's Deployment
  template_hash TEXT,                         -- pod-template-hash of generated pods
  class_id     INTEGER REFERENCES pod_class(id),      -- the pod template as written
  pod_class_id INTEGER REFERENCES pod_class(id),      -- the pods it creates (DaemonSet: + the controller's tolerations)
  labels       TEXT NOT NULL DEFAULT '{}',    -- JSON object: the template's labels
  created      INTEGER,
  source TEXT, line INTEGER,
  batch_id INTEGER NOT NULL REFERENCES import_batch(id),
  UNIQUE(kind, namespace, name)
);

-- KubeSchedulerConfiguration documents, stored as JSON for `plan` to read.
CREATE TABLE scheduler_config(
  id          INTEGER PRIMARY KEY,
  api_version TEXT NOT NULL,
  document    TEXT NOT NULL,                  -- the whole document as JSON
  source      TEXT NOT NULL,                  -- FILE#N (document N of FILE)
  line        INTEGER,
  batch_id    INTEGER NOT NULL REFERENCES import_batch(id),
  -- the document's own YAML, blank-padded so that its lines and columns are
  -- those of yaml_file (a ConfigMap's too): plan-time errors point there.
  -- NULL: not recoverable (the JSON is read).  Added by import when missing.
  yaml        TEXT,
  yaml_file   TEXT,
  UNIQUE(source)
);

------------------------------------------------------------------ views

-- Effective priority and preemption policy, resolved as the Priority
-- admission plugin would: spec.priority, else the named PriorityClass, else
-- the globalDefault class (the lowest one if several claim it), else 0.
-- A pod may name the API server's built-in classes without an import:
-- system-node-critical and system-cluster-critical (the subquery is
-- KP_KNOWN_PRIORITY_CLASSES of common/priority.h, which the planner uses).
CREATE VIEW pod_priority AS
SELECT p.id AS pod_id,
       COALESCE(c.priority, pc.value,
                CASE WHEN c.priority_class IS NULL
                     THEN (SELECT value FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END,
                0) AS priority,
       COALESCE(c.preemption_policy, pc.preemption_policy,
                CASE WHEN c.priority_class IS NULL
                     THEN (SELECT preemption_policy FROM priority_class WHERE global_default ORDER BY value ASC LIMIT 1) END,
                'PreemptLowerPriority') AS preemption_policy,
       c.priority_class IS NOT NULL AND pc.name IS NULL AS missing_class
FROM pod p JOIN pod_class c ON c.id = p.class_id
LEFT JOIN (SELECT id, name, value, preemption_policy FROM priority_class UNION ALL SELECT NULL, column1, column2, 'PreemptLowerPriority' FROM (VALUES ('system-node-critical', 2000001000), ('system-cluster-critical', 2000000000)) WHERE column1 NOT IN (SELECT name FROM priority_class)) pc ON pc.name = c.priority_class;

CREATE VIEW pod_request AS
SELECT p.id AS pod_id, r.resource, r.value
FROM pod p JOIN class_request r ON r.class_id = p.class_id;

CREATE VIEW pod_container AS
SELECT p.id AS pod_id, c.seq, c.kind, c.name, c.image, c.requests
FROM pod p JOIN class_container c ON c.class_id = p.class_id;

CREATE VIEW pod_toleration AS
SELECT p.id AS pod_id, t.seq, t.key, t.operator, t.value, t.effect, t.seconds
FROM pod p JOIN class_toleration t ON t.class_id = p.class_id;

CREATE VIEW pod_node_selector AS
SELECT p.id AS pod_id, s.key, s.value
FROM pod p JOIN class_node_selector s ON s.class_id = p.class_id;

CREATE VIEW pod_node_affinity AS
SELECT p.id AS pod_id, t.required, t.term, t.weight, e.seq, e.field, e.key, e.operator, e.vals
FROM pod p JOIN class_node_term t ON t.class_id = p.class_id
LEFT JOIN class_node_expr e ON e.class_id = t.class_id AND e.required = t.required AND e.term = t.term;

CREATE VIEW pod_affinity_term AS
SELECT p.id AS pod_id, a.*
FROM pod p JOIN class_pod_affinity a ON a.class_id = p.class_id;

CREATE VIEW pod_spread AS
SELECT p.id AS pod_id, s.*
FROM pod p JOIN class_spread s ON s.class_id = p.class_id;

CREATE VIEW pod_port AS
SELECT p.id AS pod_id, o.*
FROM pod p JOIN class_port o ON o.class_id = p.class_id;

-- Allocatable per node and resource, and what the pods bound there request.
CREATE VIEW node_allocation AS
SELECT n.id AS node_id, n.name AS node, r.resource, r.allocatable,
       COALESCE((SELECT SUM(q.value) FROM pod p JOIN class_request q ON q.class_id = p.class_id
                 WHERE p.node_name = n.name AND q.resource = r.resource
                   AND p.phase NOT IN ('Succeeded', 'Failed')), 0) AS requested
FROM node n JOIN node_resource r ON r.node_id = n.id;

------------------------------------------------------------------ plans (outputs)
-- Every `kplan plan` appends one run; nothing here is ever overwritten.

CREATE TABLE run(
  id          INTEGER PRIMARY KEY,
  started     TEXT NOT NULL,                  -- UTC, RFC 3339
  mode        TEXT NOT NULL DEFAULT 'pending',
  options     TEXT NOT NULL,                  -- JSON: the command-line options
  config      TEXT NOT NULL,                  -- JSON: the profiles used (after defaulting)
  config_source TEXT NOT NULL,                -- 'default', a file, or scheduler_config:ID
  seed        INTEGER NOT NULL,
  nodes       INTEGER, pending INTEGER, bound INTEGER, unschedulable INTEGER,
  kept        INTEGER, ignored INTEGER, evicted INTEGER DEFAULT 0, moved INTEGER DEFAULT 0,
  passes      INTEGER,                        -- queue passes (batch retry, semantics §12)
  elapsed     REAL,                           -- seconds, planning and writing
  kplan       TEXT NOT NULL,
  kube_version  TEXT,                         -- the kube-scheduler planned as: '1.37' (docs/kube-versions.md)
  feature_gates TEXT                          -- the gates set explicitly: 'GenericWorkload=true,...' ('' none)
);

-- One row per pod and run.  action: keep (bound, untouched; with --mode full or a
-- what-if scenario also a pod placed back on its node; node_id NULL: a finished
-- pod, or a pending pod not this scheduler's), bind, move, evict, unschedulable.
CREATE TABLE placement(
  run_id   INTEGER NOT NULL REFERENCES run(id),
  pod_id   INTEGER NOT NULL,                  -- pod.id (no FK: history outlives pods)
  seq      INTEGER,                           -- decision order; NULL for keep
  action   TEXT NOT NULL,
  node_id  INTEGER,                           -- node.id where the pod ends up
  from_node_id INTEGER,
  score    INTEGER,                           -- weighted total of the chosen node
  feasible INTEGER,                           -- nodes that passed every filter
  attempts INTEGER,                           -- times the pod went through the cycle
  reason   TEXT,                              -- kube-style message for unschedulable
  PRIMARY KEY(run_id, pod_id)
) WITHOUT ROWID;

-- Why a pod failed: per plugin and reason, how many nodes said so.
-- decisive: 1 for the reasons of the nodes that pass every static filter
-- (taints and cordon, nodeSelector and node affinity), or, when no node
-- passes them, for the static reasons; 0 for a static reason of a pod that
-- other nodes reject for other reasons (planner/decisive.h).  NULL in runs
-- made before the column.
CREATE TABLE pod_failure(
  run_id INTEGER NOT NULL REFERENCES run(id),
  pod_id INTEGER NOT NULL,
  plugin TEXT NOT NULL,
  reason TEXT NOT NULL,
  nodes  INTEGER NOT NULL,
  decisive INTEGER,
  PRIMARY KEY(run_id, pod_id, plugin, reason)
) WITHOUT ROWID;

-- DefaultPreemption's evictions, in the order they happened.  A victim with
-- a controller is re-created and planned again later in the run (placement
-- says where it ended up: move, or evict when it found no home).
CREATE TABLE eviction(
  run_id INTEGER NOT NULL REFERENCES run(id),
  seq    INTEGER NOT NULL,                    -- eviction order within the run
  pod_id INTEGER NOT NULL,
  node_id INTEGER NOT NULL,                   -- where it was evicted from
  preemptor_pod_id INTEGER NOT NULL,
  pdb_violated INTEGER NOT NULL DEFAULT 0,    -- the eviction broke a PodDisruptionBudget
  pdbs TEXT,                                  -- JSON array of the budgets it counted against
  PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;
CREATE INDEX eviction_by_pod ON eviction(run_id, pod_id);

-- Things the planner met and does not model (it warns, never ignores silently).
CREATE TABLE run_warning(
  run_id  INTEGER NOT NULL REFERENCES run(id),
  kind    TEXT NOT NULL,
  message TEXT NOT NULL,
  pods    INTEGER NOT NULL,
  PRIMARY KEY(run_id, kind)
) WITHOUT ROWID;

-- Pods and nodes with negative ids exist only in a what-if run's scenario:
-- run_pod and run_node (below) name them.
CREATE VIEW plan_all AS
SELECT pl.run_id, COALESCE(p.namespace, rp.namespace) AS namespace, COALESCE(p.name, rp.name) AS pod, pl.action,
       COALESCE(n.name, rn.name) AS node, f.name AS from_node, pl.reason
FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id
LEFT JOIN run_pod rp ON pl.pod_id < 0 AND rp.run_id = pl.run_id AND rp.pod_id = pl.pod_id
LEFT JOIN node n ON n.id = pl.node_id
LEFT JOIN run_node rn ON pl.node_id < 0 AND rn.run_id = pl.run_id AND rn.node_id = pl.node_id AND rn.change = 'added'
LEFT JOIN node f ON f.id = pl.from_node_id
WHERE p.id IS NOT NULL OR rp.pod_id IS NOT NULL;

-- The contract users and tests read: the latest run, one row per pod.
CREATE VIEW plan AS
SELECT * FROM plan_all WHERE run_id = (SELECT max(id) FROM run);

CREATE VIEW unschedulable AS
SELECT pl.run_id, COALESCE(p.namespace, rp.namespace) AS namespace, COALESCE(p.name, rp.name) AS pod, pl.reason,
       (SELECT group_concat(f.nodes || ' ' || f.reason, ', ') FROM pod_failure f
        WHERE f.run_id = pl.run_id AND f.pod_id = pl.pod_id) AS breakdown
FROM placement pl LEFT JOIN pod p ON p.id = pl.pod_id
LEFT JOIN run_pod rp ON pl.pod_id < 0 AND rp.run_id = pl.run_id AND rp.pod_id = pl.pod_id
WHERE pl.action = 'unschedulable' AND pl.run_id = (SELECT max(id) FROM run)
  AND (p.id IS NOT NULL OR rp.pod_id IS NOT NULL);

-- Per node and resource in the latest run: requested before (bound pods) and
-- after (what stays or lands there), and the percentage of allocatable.
CREATE VIEW node_usage AS
WITH r AS (SELECT max(id) AS id FROM run),
before AS (
  SELECT n.id AS node_id, q.resource, SUM(q.value) AS v
  FROM node n JOIN pod p ON p.node_name = n.name AND p.phase NOT IN ('Succeeded', 'Failed')
  JOIN class_request q ON q.class_id = p.class_id GROUP BY n.id, q.resource),
after AS (
  SELECT pl.node_id, q.resource, SUM(q.value) AS v
  FROM placement pl JOIN r ON pl.run_id = r.id JOIN pod p ON p.id = pl.pod_id
  JOIN class_request q ON q.class_id = p.class_id
  WHERE pl.action IN ('keep', 'bind', 'move') AND pl.node_id IS NOT NULL GROUP BY pl.node_id, q.resource)
SELECT (SELECT id FROM r) AS run_id, n.name AS node, nr.resource, nr.allocatable,
       COALESCE(b.v, 0) AS requested_before, COALESCE(a.v, 0) AS requested_after,
       CASE WHEN nr.allocatable > 0 THEN round(100.0 * COALESCE(a.v, 0) / nr.allocatable, 1) END AS percent
FROM node n JOIN node_resource nr ON nr.node_id = n.id
LEFT JOIN before b ON b.node_id = n.id AND b.resource = nr.resource
LEFT JOIN after a ON a.node_id = n.id AND a.resource = nr.resource;

------------------------------------------------------------------ plan quality
-- Written by every plan run (planner/quality.c), in the run's transaction.
-- kp_quality_write also runs this section, from this marker to the end
-- marker below, on databases made before it existed.
-- A pool is the value of the node label node.kubernetes.io/instance-type
-- ('(none)' without it).  "App pods" are the pods on a node after the run
-- (keep, bind, move) that are neither DaemonSet nor static (Node-owned) pods:
-- those exist because the node does and count as the node's overhead.
-- README "Plan quality" explains each bound.

-- Per run and pool: nodes used by the plan against a lower bound on the nodes
-- the pool's app pods need.
CREATE TABLE IF NOT EXISTS plan_quality(
  run_id      INTEGER NOT NULL REFERENCES run(id),
  pool        TEXT NOT NULL,
  nodes       INTEGER NOT NULL,               -- nodes in the pool
  nodes_used  INTEGER NOT NULL,               -- nodes holding at least one app pod after the run
  pods        INTEGER NOT NULL,               -- app pods placed in the pool
  bound       INTEGER NOT NULL,               -- max of the three bounds below and (pods > 0)
  bound_by    TEXT,                           -- requests:RES, large-pods:RES, anti-affinity:NS/NAME, one-pod; NULL when 0
  requests_bound      INTEGER NOT NULL,       -- per resource, the fewest nodes whose capacity holds the requests
  large_pods_bound    INTEGER NOT NULL,       -- per resource, pods needing more than half of the largest node
  anti_affinity_bound INTEGER NOT NULL,       -- largest group of pods that required anti-affinity keeps apart
  gap_pct     REAL,                           -- 100 * (nodes_used - bound) / bound, 1 decimal; NULL when bound = 0
  PRIMARY KEY(run_id, pool)
) WITHOUT ROWID;

-- Per run, pool and resource: capacity free on the pool's used nodes, and
-- the part of it that is stranded (free on a node where another resource is
-- exhausted: less of it is free than the smallest request of it among the
-- pool's app pods; pod slots: none left).
CREATE TABLE IF NOT EXISTS plan_stranded(
  run_id      INTEGER NOT NULL REFERENCES run(id),
  pool        TEXT NOT NULL,
  resource    TEXT NOT NULL,
  nodes       INTEGER NOT NULL,               -- used nodes of the pool
  allocatable INTEGER NOT NULL,               -- on those nodes
  free        INTEGER NOT NULL,               -- allocatable - requested after the run (0 when over-committed)
  stranded    INTEGER NOT NULL,               -- free on the nodes where another resource is exhausted
  stranded_nodes INTEGER NOT NULL,
  stranded_pct   REAL,                        -- 100 * stranded / allocatable, 1 decimal
  exhausted_by   TEXT,                        -- the exhausted resources, most nodes first ("cpu, pods")
  PRIMARY KEY(run_id, pool, resource)
) WITHOUT ROWID;
-- end of plan quality

------------------------------------------------------------------ what-if
-- A what-if run (`plan --remove-nodes/--cordon/--drain/--add-nodes/--scale`,
-- `--mode full`, `--strategy`) plans a scenario that exists for that run only;
-- the imported tables are never changed (planner/whatif.h).  These tables say
-- what the scenario was.  Nodes and pods that exist only in a scenario have
-- NEGATIVE ids, never an imported row's: placement refers to them, and
-- plan_all and unschedulable take their names from here.  Pods the scenario
-- took off a node are in placement: move (from_node), keep (back on the same
-- node, --mode full) or unschedulable (from_node).
-- kp_whatif_record also runs this section, from this marker to the end
-- marker below, on databases made before it existed.

-- One row per option, in the order they were applied.
CREATE TABLE IF NOT EXISTS run_scenario(
  run_id       INTEGER NOT NULL REFERENCES run(id),
  seq          INTEGER NOT NULL,              -- order applied
  option       TEXT NOT NULL,                 -- remove-nodes cordon drain add-nodes scale mode strategy
  value        TEXT NOT NULL,                 -- as given
  nodes        INTEGER NOT NULL DEFAULT 0,    -- nodes removed, cordoned, drained or added
  pods_pending INTEGER NOT NULL DEFAULT 0,    -- bound pods made pending (re-placed by the run)
  pods_added   INTEGER NOT NULL DEFAULT 0,    -- replicas added; DaemonSet pods of added nodes
  pods_removed INTEGER NOT NULL DEFAULT 0,    -- replicas removed; pods gone with removed nodes
  effect       TEXT NOT NULL,                 -- what the option changed, for people
  result       TEXT,                          -- what the run did with it ("pods made pending: 3 move")
  PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;

-- Nodes the scenario changed.  added: node_id < 0, named TEMPLATE-whatif-N.
CREATE TABLE IF NOT EXISTS run_node(
  run_id  INTEGER NOT NULL REFERENCES run(id),
  node_id INTEGER NOT NULL,
  name    TEXT NOT NULL,
  change  TEXT NOT NULL,                      -- added removed cordoned drained
  seq     INTEGER NOT NULL,                   -- run_scenario.seq
  PRIMARY KEY(run_id, node_id, change)
) WITHOUT ROWID;

-- Pods the scenario added (pod_id < 0: replicas of --scale, DaemonSet pods
-- of added nodes) or removed (replicas of --scale; pods gone with a removed
-- node: DaemonSet, static, finished, terminating).  Removed pods have no
-- placement row in the run.
CREATE TABLE IF NOT EXISTS run_pod(
  run_id      INTEGER NOT NULL REFERENCES run(id),
  pod_id      INTEGER NOT NULL,
  namespace   TEXT NOT NULL,
  name        TEXT NOT NULL,
  change      TEXT NOT NULL,                  -- added removed
  class_id    INTEGER,                        -- pod_class
  workload_id INTEGER,
  node_name   TEXT,                           -- removed: where it was; added DaemonSet pod: its node
  seq         INTEGER NOT NULL,               -- run_scenario.seq
  PRIMARY KEY(run_id, pod_id)
) WITHOUT ROWID;
-- end of what-if

------------------------------------------------------------------ rebalance
-- Written by `kplan plan --mode rebalance` (planner/rebalance.c), in the
-- run's transaction.  The moves themselves are also placement rows (action
-- 'move', from_node_id set).  kp_rebalance_write also runs this section, from
-- this marker to the end marker below, on databases made before it existed.
-- README "Nightly rebalance" explains strategies, gains, costs and waves.

-- One row per run: what was asked and what came out.
CREATE TABLE IF NOT EXISTS rebalance_run(
  run_id      INTEGER PRIMARY KEY REFERENCES run(id),
  strategies  TEXT NOT NULL,                  -- enabled strategies, comma-separated, in the order run
  settings    TEXT NOT NULL,                  -- JSON: the effective arguments and limits
  moves       INTEGER NOT NULL,
  waves       INTEGER NOT NULL,
  nodes_freed INTEGER NOT NULL,               -- nodes with app pods before and none after
  cost        REAL NOT NULL,                  -- sum of the moves' disruption costs
  no_home     INTEGER NOT NULL,               -- evictions not proposed: the pod found no other node
  limited     INTEGER NOT NULL,               -- evictions not proposed: a limit or a PDB said no
  kept        INTEGER NOT NULL DEFAULT 0      -- pods a strategy picked that the evictor's rules keep (bare, DaemonSet,
                                              -- static, terminating, system-critical, priority, local storage, PVC, namespaces)
);

-- The move plan, in order: every wave can be executed at once.
CREATE TABLE IF NOT EXISTS move_wave(
  run_id       INTEGER NOT NULL REFERENCES run(id),
  seq          INTEGER NOT NULL,              -- order of the moves (the simulation's order)
  wave         INTEGER NOT NULL,              -- 1, 2, ...: each after the previous one has settled
  pod_id       INTEGER NOT NULL,
  from_node_id INTEGER NOT NULL,
  to_node_id   INTEGER NOT NULL,              -- negative: a node a what-if option added
  namespace    TEXT NOT NULL,                 -- the pod's, and the nodes' names, as in the run
  pod          TEXT NOT NULL,
  from_node    TEXT NOT NULL,
  to_node      TEXT NOT NULL,
  strategy     TEXT NOT NULL,                 -- the descheduler strategy that proposed it
  gain         REAL NOT NULL,                 -- 1 per violation fixed or duplicate spread; LowNodeUtilization:
                                              -- points of utilisation taken off the source; HighNodeUtilization: 1/k
  cost         REAL NOT NULL,                 -- 1 per pod, 2 for a StatefulSet pod, +1 with PVC volumes
  detail       TEXT NOT NULL,                 -- why, for people
  PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;

-- Per resource (cpu, memory, pods): utilisation of the nodes (requested /
-- allocatable, %) before the moves (after the pending pods) and after them.
CREATE TABLE IF NOT EXISTS rebalance_util(
  run_id        INTEGER NOT NULL REFERENCES run(id),
  resource      TEXT NOT NULL,
  nodes         INTEGER NOT NULL,             -- nodes with some allocatable of it
  mean_before   REAL NOT NULL,
  stddev_before REAL NOT NULL,                -- population standard deviation
  mean_after    REAL NOT NULL,
  stddev_after  REAL NOT NULL,
  PRIMARY KEY(run_id, resource)
) WITHOUT ROWID;

-- Nodes the moves touched.
CREATE TABLE IF NOT EXISTS rebalance_node(
  run_id    INTEGER NOT NULL REFERENCES run(id),
  node_id   INTEGER NOT NULL,
  moves_out INTEGER NOT NULL,
  moves_in  INTEGER NOT NULL,
  freed     INTEGER NOT NULL,                 -- 1: had app pods, has none after (could be removed)
  PRIMARY KEY(run_id, node_id)
) WITHOUT ROWID;
-- end of rebalance

------------------------------------------------------------------ capacity
-- `kplan capacity` (planner/capacity*.c, README "Capacity planning"): each
-- question asked appends one capacity_run and its detail rows (none with
-- --no-record).  The plan runs that answer it are dry runs: nothing of them
-- is in run or placement.

CREATE TABLE IF NOT EXISTS capacity_run(
  id       INTEGER PRIMARY KEY,
  started  TEXT NOT NULL,
  kind     TEXT NOT NULL,                     -- pod | nodes-needed | survive-node | survive-zone | survive-label
  subject  TEXT NOT NULL,                     -- the --pod file or --workload NS/NAME; the node template; node | zone
  options  TEXT NOT NULL,                     -- JSON: the options given
  answer   INTEGER,                           -- pod: replicas that fit; nodes-needed: nodes to add (NULL: none found);
                                              -- survive: 1 when it survives the loss of any one domain evaluated
  bound    INTEGER,                           -- pod: replicas tried (--max); nodes-needed: the lower bound; survive: domains evaluated
  status   TEXT NOT NULL,                     -- pod: limited | max-reached; nodes-needed: found | not-found (never-fit: before 14);
                                              -- survive: survives | fails | nothing-to-lose (no domain: answer NULL)
  reason   TEXT,                              -- pod: why the next replica does not fit; nodes-needed: why none; survive: the worst domain
  result   TEXT NOT NULL,                     -- JSON: the whole answer (what --format json prints)
  plans    INTEGER NOT NULL,                  -- plan runs made
  elapsed  REAL,
  kplan    TEXT
);

-- --pod / --workload: replicas placed per node (nodes with at least one) and per pool
CREATE TABLE IF NOT EXISTS capacity_node(
  capacity_id INTEGER NOT NULL REFERENCES capacity_run(id),
  node        TEXT NOT NULL,
  pool        TEXT NOT NULL,                  -- the value of the pool label, '(none)' without it
  replicas    INTEGER NOT NULL,
  PRIMARY KEY(capacity_id, node)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS capacity_pool(
  capacity_id INTEGER NOT NULL REFERENCES capacity_run(id),
  pool        TEXT NOT NULL,
  nodes       INTEGER NOT NULL,
  nodes_used  INTEGER NOT NULL,               -- nodes given at least one replica
  replicas    INTEGER NOT NULL,
  PRIMARY KEY(capacity_id, pool)
) WITHOUT ROWID;

-- --nodes-needed: every count of added nodes planned, in order
CREATE TABLE IF NOT EXISTS capacity_search(
  capacity_id   INTEGER NOT NULL REFERENCES capacity_run(id),
  step          INTEGER NOT NULL,
  nodes         INTEGER NOT NULL,             -- nodes added
  unschedulable INTEGER NOT NULL,             -- imported pods left without a node that an empty template node
                                              -- would take (never-fit pods are left out)
  fits          INTEGER NOT NULL,             -- 1 when every pending pod fits
  PRIMARY KEY(capacity_id, step)
) WITHOUT ROWID;
-- --nodes-needed: the pending pods that never fit on the template (not even an empty node like it takes
-- them), left out of the count (first 50 per template)
CREATE TABLE IF NOT EXISTS capacity_unfit(
  capacity_id INTEGER NOT NULL REFERENCES capacity_run(id),
  namespace   TEXT NOT NULL,
  pod         TEXT NOT NULL,
  reason      TEXT NOT NULL,
  PRIMARY KEY(capacity_id, namespace, pod)
) WITHOUT ROWID;

-- --survive: each failure domain evaluated (a node, or a zone's nodes, removed)
CREATE TABLE IF NOT EXISTS capacity_domain(
  capacity_id    INTEGER NOT NULL REFERENCES capacity_run(id),
  domain         TEXT NOT NULL,               -- node name or zone
  nodes          INTEGER NOT NULL,            -- nodes lost
  pods_displaced INTEGER NOT NULL,            -- pods taken off the lost nodes and re-placed (DaemonSet pods go with them)
  pods_lost      INTEGER NOT NULL,            -- pods placed in the baseline left without a node (capacity_pod 'loses')
  unschedulable  INTEGER NOT NULL,            -- pods (bound or pending) without a node after the loss
  extra_unschedulable INTEGER NOT NULL,       -- unschedulable minus those without a node in the baseline
  survives       INTEGER NOT NULL,            -- 1: every pod placed in the baseline is placed again (pods_lost = 0)
  PRIMARY KEY(capacity_id, domain)
) WITHOUT ROWID;
-- --survive: the pods a failure moves against the baseline: placed there and
-- left without a node (change 'loses'), or the other way round ('gains');
-- the first 50 of each per domain.  DaemonSet and static pods that go with
-- their node are neither.
CREATE TABLE IF NOT EXISTS capacity_pod(
  capacity_id INTEGER NOT NULL REFERENCES capacity_run(id),
  domain      TEXT NOT NULL,
  change      TEXT NOT NULL,                  -- loses | gains
  namespace   TEXT NOT NULL,
  pod         TEXT NOT NULL,
  priority    INTEGER NOT NULL,
  reason      TEXT NOT NULL,                  -- loses: kube's message; gains: the action (bind, move)
  PRIMARY KEY(capacity_id, domain, namespace, pod)
) WITHOUT ROWID;
-- --survive: per domain and resource, over the nodes left: allocatable and free after re-placement
CREATE TABLE IF NOT EXISTS capacity_headroom(
  capacity_id INTEGER NOT NULL REFERENCES capacity_run(id),
  domain      TEXT NOT NULL,
  resource    TEXT NOT NULL,
  allocatable INTEGER NOT NULL,
  free        INTEGER NOT NULL,               -- allocatable - requested, per node, 0 when over-committed
  PRIMARY KEY(capacity_id, domain, resource)
) WITHOUT ROWID;
-- Every answer's quality certificate (README "Plan quality"), of the plan that
-- gives the answer: --pod / --workload the plan with the replicas, --nodes-needed
-- the plan with the nodes found added (none when not found), --survive the plan
-- of the worst domain.  The columns of plan_quality and plan_stranded.
CREATE TABLE IF NOT EXISTS capacity_quality(
  capacity_id INTEGER NOT NULL REFERENCES capacity_run(id),
  pool        TEXT NOT NULL,
  nodes       INTEGER NOT NULL,
  nodes_used  INTEGER NOT NULL,
  pods        INTEGER NOT NULL,
  bound       INTEGER NOT NULL,
  bound_by    TEXT,
  requests_bound      INTEGER NOT NULL,
  large_pods_bound    INTEGER NOT NULL,
  anti_affinity_bound INTEGER NOT NULL,
  gap_pct     REAL,
  PRIMARY KEY(capacity_id, pool)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS capacity_stranded(
  capacity_id INTEGER NOT NULL REFERENCES capacity_run(id),
  pool        TEXT NOT NULL,
  resource    TEXT NOT NULL,
  nodes       INTEGER NOT NULL,
  allocatable INTEGER NOT NULL,
  free        INTEGER NOT NULL,
  stranded    INTEGER NOT NULL,
  stranded_nodes INTEGER NOT NULL,
  stranded_pct   REAL,
  exhausted_by   TEXT,
  PRIMARY KEY(capacity_id, pool, resource)
) WITHOUT ROWID;
-- end of capacity

------------------------------------------------------------------ fix
-- `kplan fix` (planner/fix.c, README "Why-not: the smallest fix"): for an
-- unschedulable pod of a run, the candidate fixes found, each checked with a
-- dry-run plan of the baseline plus the change, ranked by disruption (rank 1:
-- the pod's best).  Pods without a fix have no row; a new `kplan fix` of the
-- run replaces them (`--no-record` writes none).  A table made before rank,
-- level, joint and joint_node existed is rebuilt with them (its rows rank 1;
-- level NULL for a relax row, whose level was not recorded).
CREATE TABLE IF NOT EXISTS fix(
  run_id      INTEGER NOT NULL REFERENCES run(id),
  pod_id      INTEGER NOT NULL,
  namespace   TEXT NOT NULL,
  pod         TEXT NOT NULL,
  rank        INTEGER NOT NULL DEFAULT 1,     -- 1: the pod's least disruptive checked fix
  level       TEXT,                           -- add-node | evict | move-gpu | relax-soft | relax-hard | untaint-dedicated
  kind        TEXT NOT NULL,                  -- evict | add-node | move | relax
  detail      TEXT NOT NULL,                  -- what to change, in words
  victims     TEXT NOT NULL DEFAULT '[]',     -- evict: JSON array of "namespace/name", in eviction order
  checked     INTEGER NOT NULL,               -- 1: a dry-run plan with the change placed the pod
  result_node TEXT,                           -- where that plan placed it
  joint       INTEGER NOT NULL DEFAULT 0,     -- 1: part of the one change set checked for all the pods together
  joint_node  TEXT,                           -- where the joint check placed the pod (NULL: it did not)
  PRIMARY KEY(run_id, pod_id, rank)
) WITHOUT ROWID;
-- end of fix

------------------------------------------------------------------ extenders
-- HTTP scheduler extenders (KubeSchedulerConfiguration `extenders:`,
-- docs/scheduler-configuration.md): every call a plan run made, in order.
-- Written with the run (planner/plan_extender.c), which also runs this
-- section on databases made before it existed.  Times vary from run to run;
-- everything else is the plan's.
CREATE TABLE IF NOT EXISTS extender_call(
  run_id   INTEGER NOT NULL REFERENCES run(id),
  seq      INTEGER NOT NULL,                  -- call order within the run
  pod_id   INTEGER NOT NULL,                  -- the pod of the scheduling cycle
  extender TEXT NOT NULL,                     -- its urlPrefix
  verb     TEXT NOT NULL,                     -- filter | prioritize | preempt
  outcome  TEXT NOT NULL,                     -- ok | error (failed the pod's cycle) | skipped (ignorable) | ignored (prioritize)
  nodes    INTEGER NOT NULL,                  -- nodes sent
  passed   INTEGER,                           -- ok: nodes a filter kept (prioritize: nodes sent)
  ms       INTEGER NOT NULL,                  -- wall time of the call
  message  TEXT,                              -- the error, as kube-scheduler words it
  PRIMARY KEY(run_id, seq)
) WITHOUT ROWID;
-- end of extenders

------------------------------------------------------------------ kube
-- What kube-scheduler versions 1.31..1.37 read differently (docs/kube-versions.md):
-- the inputs of the version-dependent rules, applied by the planner at load
-- (planner/snapshot_kube.c).  This section, from this marker to its end
-- marker, also runs when `import` opens a database made before it existed
-- (kp_db_schema_section), hence IF NOT EXISTS.
CREATE TABLE IF NOT EXISTS node_declared_feature(   -- node.status.declaredFeatures (NodeDeclaredFeatures, 1.35+)
  node_id INTEGER NOT NULL REFERENCES node(id),
  feature TEXT NOT NULL,
  PRIMARY KEY(node_id, feature)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS class_feature(           -- node features the class's pods require (kube's InferForPodScheduling, as kplan infers it)
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  feature  TEXT NOT NULL,
  PRIMARY KEY(class_id, feature)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS class_kube_input(        -- the version-dependent inputs a class's pods have (run warnings name their gate)
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  input    TEXT NOT NULL,                  -- pod-level-resources (spec.resources) | resize-status (status resources)
  PRIMARY KEY(class_id, input)
) WITHOUT ROWID;
-- class_request holds the requests of kube 1.37's defaults (pod-level
-- resources and, for a bound pod, its status resources counted); a class whose
-- requests differ when a gate is off has here every variant:
--   variant 1: PodLevelResources off (spec.resources ignored; before 1.34),
--   variant 2: InPlacePodVerticalScaling off (status resources ignored; before 1.33),
--   variant 3: both off.
-- nonzero 1: the scoring request (100m / 200Mi per container without a request;
-- cpu and memory only), 0: the effective request (zero amounts left out).
CREATE TABLE IF NOT EXISTS class_request_alt(
  class_id INTEGER NOT NULL REFERENCES pod_class(id),
  variant  INTEGER NOT NULL,
  nonzero  INTEGER NOT NULL,
  resource TEXT NOT NULL,
  value    INTEGER NOT NULL,
  PRIMARY KEY(class_id, variant, nonzero, resource)
) WITHOUT ROWID;
-- end of kube
