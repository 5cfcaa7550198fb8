-- kplan's gang scheduling tables (docs/gangs.md): embedded after
-- schema/schema.sql, storage.sql and dra.sql (the Makefile concatenates
-- them), in one section of its own.

------------------------------------------------------------------ gang
-- The Workload API of scheduling.k8s.io (kube 1.35 v1alpha1, 1.36 v1alpha2,
-- 1.37 v1beta1), read by the planner's pod-group cycle (planner/plan_gang.c)
-- when GenericWorkload is on (docs/gangs.md).  Not to be confused with the
-- `workload` table (the pods' controllers: Deployment, Job, ...).  This
-- section, from this marker to its end marker, also runs when `import`
-- opens a database made before it existed (kp_db_schema_section), hence
-- IF NOT EXISTS.  A top-level object replaces the one of its name and
-- namespace read by an earlier import; twice in one import is an error.

-- Workload (scheduling.k8s.io): its controllerRef.
CREATE TABLE IF NOT EXISTS sched_workload(
  id              INTEGER PRIMARY KEY,
  namespace       TEXT NOT NULL,
  name            TEXT NOT NULL,
  api_version     TEXT NOT NULL,
  controller_kind TEXT, controller_name TEXT,   -- spec.controllerRef
  source TEXT, line INTEGER,
  batch_id        INTEGER REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);
-- Its pod group templates: spec.podGroupTemplates[] (v1alpha2, v1beta1) or
-- spec.podGroups[] (v1alpha1, whose pods name it in spec.workloadRef).
-- policy: 'gang' (min_count = gang.minCount) or 'basic' (min_count 1).
CREATE TABLE IF NOT EXISTS sched_workload_template(
  workload_id     INTEGER NOT NULL REFERENCES sched_workload(id),
  seq             INTEGER NOT NULL,
  name            TEXT NOT NULL,
  policy          TEXT NOT NULL,
  min_count       INTEGER NOT NULL,
  priority_class  TEXT, priority INTEGER,
  disruption_mode TEXT,                         -- 'Single' | 'All', NULL unset
  PRIMARY KEY(workload_id, seq)
) WITHOUT ROWID;
-- PodGroup (v1alpha2, v1beta1): the runtime group pods name in
-- spec.schedulingGroup.podGroupName.  workload_name / template_name:
-- spec.workloadRef (v1beta1) or spec.podGroupTemplateRef.workload (v1alpha2).
CREATE TABLE IF NOT EXISTS pod_group(
  id              INTEGER PRIMARY KEY,
  namespace       TEXT NOT NULL,
  name            TEXT NOT NULL,
  api_version     TEXT NOT NULL,
  workload_name   TEXT, template_name TEXT,
  policy          TEXT NOT NULL,                -- 'gang' | 'basic'
  min_count       INTEGER NOT NULL,             -- gang.minCount; 1 for basic
  topology_key    TEXT,                         -- schedulingConstraints (TopologyAwareWorkloadScheduling: not planned)
  priority_class  TEXT, priority INTEGER,
  disruption_mode TEXT,
  source TEXT, line INTEGER,
  batch_id        INTEGER REFERENCES import_batch(id),
  UNIQUE(namespace, name)
);
-- The group a pod belongs to: spec.schedulingGroup.podGroupName (1.36+:
-- pod_group) or spec.workloadRef (1.35: workload, pod_group = its podGroup,
-- replica_key = podGroupReplicaKey).  Pods read from the input here; pods a
-- controller generates take their template's row (workload_scheduling_group).
CREATE TABLE IF NOT EXISTS pod_scheduling_group(
  pod_id      INTEGER PRIMARY KEY REFERENCES pod(id),
  pod_group   TEXT NOT NULL,
  workload    TEXT,
  replica_key TEXT
);
CREATE TABLE IF NOT EXISTS workload_scheduling_group(
  workload_id INTEGER PRIMARY KEY REFERENCES workload(id),
  pod_group   TEXT NOT NULL,
  workload    TEXT,
  replica_key TEXT
);
-- Every pod with a group, read or generated.
CREATE VIEW IF NOT EXISTS pod_gang AS
SELECT p.id AS pod_id, p.namespace, COALESCE(g.pod_group, wg.pod_group) AS pod_group,
       CASE WHEN g.pod_id IS NOT NULL THEN g.workload ELSE wg.workload END AS workload,
       CASE WHEN g.pod_id IS NOT NULL THEN g.replica_key ELSE wg.replica_key END AS replica_key
FROM pod p LEFT JOIN pod_scheduling_group g ON g.pod_id = p.id
LEFT JOIN workload_scheduling_group wg ON g.pod_id IS NULL AND wg.workload_id = p.workload_id
WHERE g.pod_id IS NOT NULL OR wg.workload_id IS NOT NULL;
-- end of gang
