#!/usr/bin/env bash
# 12-import-kinds.t — the YAML/JSON importer, one section per kind and rule.
# Inputs are in tests/data/import/ (CRLF and changed copies are made here).
# Expected values follow the Kubernetes API (defaulting, controllers) and
# docs/kube-scheduler-semantics.md; they were worked out by hand.
. "$(dirname "$0")/../lib.sh"

D=$TESTS_DIR/data/import

# SQL: a JSON/text column made CSV-safe (q prints CSV): quotes dropped, commas -> spaces
J() { echo "replace(replace($1, '\"', ''), ',', ' ')"; }
pid() { q "$1" "SELECT id FROM pod WHERE name = '$2'"; }
preq() {
	q "$1" "SELECT COALESCE((SELECT r.value FROM pod p JOIN pod_request r ON r.pod_id = p.id
		WHERE p.name = '$2' AND r.resource = '$3'), 'none')"
}
nres() {
	q "$1" "SELECT COALESCE((SELECT r.allocatable || '/' || r.capacity FROM node n JOIN node_resource r ON r.node_id = n.id
		WHERE n.name = '$2' AND r.resource = '$3'), 'none')"
}
# cls DB POD COLUMN: a pod_class column of a pod
cls() { q "$1" "SELECT c.$3 FROM pod p JOIN pod_class c ON c.id = p.class_id WHERE p.name = '$2'"; }
imp() { # imp DB FILE...: import, assert exit 0
	local db=$1
	shift
	run "$KPLAN" import "$db" "$@"
	is "$rc" 0 "import $(for f in "$@"; do basename "$f"; done | tr '\n' ' ')exits 0${err:+ ($err)}"
}

# ==== Node ==========================================================================
db=$T/nodes.db
imp "$db" "$D/nodes.yaml"
is "$(q "$db" "SELECT count(*) FROM node")" 2 "nodes: 2 nodes"
is "$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM node_label WHERE node_id = (SELECT id FROM node WHERE name = 'n1') ORDER BY key)")" \
	"disk=ssd empty= kubernetes.io/hostname=n1 topology.kubernetes.io/zone=zone-a" "n1: labels, incl. an empty value"
is "$(q "$db" "SELECT group_concat(seq || ':' || key || '=' || value || ':' || effect, ' ') FROM (SELECT * FROM node_taint ORDER BY seq)")" \
	"0:dedicated=gpu:NoSchedule 1:soft=:PreferNoSchedule 2:node.kubernetes.io/unreachable=:NoExecute" "n1: taints in spec order"
is "$(nres "$db" n1 cpu)" 7800/8000 "n1: cpu allocatable 7800m, capacity 8"
is "$(nres "$db" n1 memory)" 32212254720/34359738368 "n1: memory 30Gi / 32Gi"
is "$(nres "$db" n1 ephemeral-storage)" 95000000000/107374182400 "n1: ephemeral-storage plain bytes / 100Gi"
is "$(nres "$db" n1 nvidia.com/gpu)/$(nres "$db" n1 hugepages-2Mi)/$(nres "$db" n1 pods)" 4/4/1073741824/1073741824/110/110 \
	"n1: extended resource, hugepages, pods"
is "$(q "$db" "SELECT group_concat(seq || ':' || name || ':' || size_bytes, ' ') FROM (SELECT * FROM node_image ORDER BY seq, name)")" \
	"0:registry.example.com/app:1.0:123456789 0:registry.example.com/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef:123456789 1:busybox:1.36:4000000" \
	"n1: one row per image name, same size"
is "$(q "$db" "SELECT unschedulable || '/' || uid || '/' || created FROM node WHERE name = 'n1'")" \
	1/0d1b2c3e-0000-4000-8000-000000000001/1709294400 "n1: cordoned, uid, created 2024-03-01T12:00:00Z"
is "$(nres "$db" n2 cpu)/$(nres "$db" n2 memory)/$(nres "$db" n2 pods)" 4000/4000/17179869184/17179869184/58/58 \
	"n2: no status.allocatable: allocatable defaults to capacity"
is "$(q "$db" "SELECT unschedulable || '/' || (SELECT count(*) FROM node_taint t WHERE t.node_id = n.id) FROM node n WHERE name = 'n2'")" 0/0 \
	"n2: spec {} -> schedulable, no taints"

# re-importing a changed Node replaces it (labels are not merged)
sed -e 's/^    disk: ssd$/    disk: hdd/' -e 's/^    empty: ""$/    rack: r7/' "$D/nodes.yaml" >"$T/nodes-v2.yaml"
imp "$db" "$T/nodes-v2.yaml"
is "$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM node_label WHERE node_id = (SELECT id FROM node WHERE name = 'n1') ORDER BY key)")" \
	"disk=hdd kubernetes.io/hostname=n1 rack=r7 topology.kubernetes.io/zone=zone-a" "re-import: n1 has the new labels only"
is "$(q "$db" "SELECT count(*) || '/' || max(batch_id) FROM node")/$(q "$db" "SELECT count(*) FROM node_taint")" 2/2/3 \
	"re-import: still 2 nodes, from batch 2, taints not doubled"

# ==== Pod ============================================================================
db=$T/pods.db
imp "$db" "$D/pods.yaml"
is "$(q "$db" "SELECT group_concat(namespace || '/' || name, ' ') FROM (SELECT * FROM pod ORDER BY id)")" \
	"team-a/full team-a/hostnet team-a/done default/plain" "pods: 4 pods in file order; no namespace -> default"
P=full
is "$(q "$db" "SELECT uid || ' ' || node_name || ' ' || phase || ' ' || created || ' ' || start_time || ' ' || terminating || ' ' || nominated_node FROM pod WHERE name = '$P'")" \
	"11111111-2222-3333-4444-555555555555 n1 Running 1704164645 1704164700 1 n9" "full: uid, nodeName, phase, times, deletionTimestamp -> terminating, nominatedNodeName"
is "$(q "$db" "SELECT owner_kind || ' ' || owner_name || ' ' || owner_uid FROM pod WHERE name = '$P'")" \
	"ReplicaSet full-rs bbbbbbbb-0000-4000-8000-000000000000" "full: the controller ownerReference, not the first one"
is "$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT l.* FROM pod_label l JOIN pod p ON p.id = l.pod_id WHERE p.name = '$P' ORDER BY key)")" \
	"app=full tier=web" "full: labels"
is "$(cls "$db" $P scheduler_name)/$(cls "$db" $P priority)/$(cls "$db" $P priority_class)/$(cls "$db" $P preemption_policy)" \
	my-scheduler/7/some-class/Never "full: schedulerName, priority, priorityClassName, preemptionPolicy"
is "$(cls "$db" $P scheduling_gates)/$(cls "$db" $P pvc_volumes)/$(cls "$db" $P host_network)/$(cls "$db" $P has_required_node_affinity)" \
	2/2/0/1 "full: 2 scheduling gates, PVC + ephemeral volumes (configMap not counted), required node affinity"
is "$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM pod_node_selector ORDER BY key) WHERE pod_id = $(pid "$db" $P)")" \
	"disk=ssd zone=a" "full: nodeSelector"
is "$(q "$db" "SELECT group_concat('[' || seq || ' ' || key || ' ' || operator || ' ' || value || ' ' || effect || ' ' || COALESCE(seconds, '-') || ']', '') FROM (SELECT * FROM pod_toleration WHERE pod_id = $(pid "$db" $P) ORDER BY seq)")" \
	"[0 k1 Equal v1 NoSchedule -][1 k2 Exists  NoExecute 60][2 k3 Equal v3  -][3  Exists   -]" \
	"full: tolerations in order; operator defaults to Equal; empty key with Exists"
is "$(q "$db" "SELECT group_concat(term || ':' || seq || ':' || field || ':' || key || ':' || operator || ':' || $(J vals), ' ') FROM (SELECT * FROM pod_node_affinity WHERE pod_id = $(pid "$db" $P) AND required = 1 ORDER BY term, seq)")" \
	"0:0:0:a:In:[x y] 0:1:0:b:NotIn:[z] 0:2:0:c:Exists:[] 0:3:0:d:DoesNotExist:[] 1:0:0:cores:Gt:[8] 1:1:0:cores:Lt:[64] 1:2:1:metadata.name:In:[n1 n2]" \
	"full: required node affinity, every operator incl. Gt/Lt and matchFields"
is "$(q "$db" "SELECT group_concat(term || ':' || weight || ':' || field || ':' || key || ':' || operator || ':' || $(J vals), ' ') FROM (SELECT * FROM pod_node_affinity WHERE pod_id = $(pid "$db" $P) AND required = 0 ORDER BY term, seq)")" \
	"0:20:0:zone:In:[a] 1:80:1:metadata.name:NotIn:[n3]" "full: preferred node affinity terms with weights"
aff() { # aff ANTI REQUIRED: the pod-affinity terms of 'full' of that kind
	q "$db" "SELECT group_concat(weight || ' ' || topology_key || ' ' || COALESCE($(J selector), 'NULL') || ' ' || $(J namespaces) || ' ' ||
		COALESCE($(J ns_selector), 'NULL') || ' ' || $(J match_label_keys) || ' ' || $(J mismatch_label_keys), ' ; ')
		FROM (SELECT * FROM pod_affinity_term WHERE pod_id = $(pid "$db" $P) AND anti = $1 AND required = $2 ORDER BY seq)"
}
is "$(aff 0 1)" "0 zone [[app In [db]]] [team-b team-c] NULL [] []" "full: required podAffinity with namespaces"
is "$(aff 0 0)" "10 kubernetes.io/hostname [[app In [cache kv]]] [] [[env In [prod]]] [] []" \
	"full: preferred podAffinity with namespaceSelector"
is "$(aff 1 1)" "0 kubernetes.io/hostname [[app In [full]]] [] [] [pod-template-hash] [tenant]" \
	"full: required podAntiAffinity, empty namespaceSelector {} (all namespaces), matchLabelKeys/mismatchLabelKeys"
is "$(aff 1 0)" "50 zone NULL [] NULL [] []" "full: preferred podAntiAffinity without labelSelector (null selector)"
is "$(q "$db" "SELECT group_concat(seq || ' ' || max_skew || ' ' || topology_key || ' ' || when_unsatisfiable || ' ' || COALESCE($(J selector), 'NULL') || ' ' ||
	COALESCE(min_domains, 'NULL') || ' ' || node_affinity_policy || ' ' || node_taints_policy || ' ' || $(J match_label_keys), ' ; ')
	FROM (SELECT * FROM pod_spread WHERE pod_id = $(pid "$db" $P) ORDER BY seq)")" \
	"0 2 zone DoNotSchedule [[app In [full]]] 3 Ignore Honor [pod-template-hash] ; 1 1 kubernetes.io/hostname ScheduleAnyway NULL NULL Honor Ignore []" \
	"full: topologySpreadConstraints, all fields and the defaults"
is "$(q "$db" "SELECT group_concat(host_ip || ' ' || protocol || ' ' || host_port || ' ' || container_port, ' ; ') FROM (SELECT * FROM pod_port WHERE pod_id = $(pid "$db" $P) ORDER BY host_port)")" \
	"10.0.0.1 UDP 5353 53 ; 0.0.0.0 TCP 8081 8080" "full: host ports of app containers only (no hostPort, init container: none)"
is "$(q "$db" "SELECT group_concat(seq || ':' || kind || ':' || name || ':' || image, ' ') FROM (SELECT * FROM pod_container WHERE pod_id = $(pid "$db" $P) ORDER BY seq)")" \
	"0:init:setup:busybox 1:sidecar:proxy:envoy 2:app:app:nginx:1.25 3:app:side:busybox" "full: containers in spec order, sidecar recognised"
# requests (§4.1): cpu max(500+100, setup 1000) + 250 overhead; memory max(256Mi+128Mi, 1Gi) + 64Mi;
# gpu from the limit; cpu limit 2 ignored (request given)
is "$(preq "$db" $P cpu)/$(preq "$db" $P memory)/$(preq "$db" $P ephemeral-storage)/$(preq "$db" $P nvidia.com/gpu)" \
	1250/1140850688/1073741824/1 "full: effective requests with init, sidecar, overhead, limit-only gpu"
# non-zero (§4.2): cpu max(500+100+100(side), 1000) + 250; memory max(256+200+128 Mi, 1Gi) + 64Mi
is "$(cls "$db" $P nonzero_cpu)/$(cls "$db" $P nonzero_memory)" 1250/1140850688 "full: non-zero requests"
is "$(q "$db" "SELECT json_extract(requests, '$.cpu') || '/' || json_extract(requests, '$.\"nvidia.com/gpu\"') FROM pod_container WHERE pod_id = $(pid "$db" $P) AND name = 'app'")" \
	500/1 "full: container requests as given, limits filled in"

P=hostnet
is "$(q "$db" "SELECT group_concat(host_ip || ' ' || protocol || ' ' || host_port || ' ' || container_port, ' ; ') FROM (SELECT * FROM pod_port WHERE pod_id = $(pid "$db" $P) ORDER BY host_port)")" \
	"0.0.0.0 TCP 80 80 ; 0.0.0.0 UDP 9090 9090" "hostNetwork: hostPort defaults to containerPort (app containers)"
is "$(cls "$db" $P host_network)/$(q "$db" "SELECT phase || '/' || COALESCE(node_name, 'pending') || '/' || terminating FROM pod WHERE name = '$P'")" \
	1/Pending/pending/0 "hostNetwork pod: pending, no status -> phase Pending"
is "$(q "$db" "SELECT phase FROM pod WHERE name = 'done'")" Succeeded "phase Succeeded kept"
P=plain
is "$(cls "$db" $P scheduler_name)/$(cls "$db" $P nonzero_cpu)/$(cls "$db" $P nonzero_memory)/$(q "$db" "SELECT count(*) FROM pod_request WHERE pod_id = $(pid "$db" $P)")" \
	default-scheduler/100/209715200/0 "plain pod: default scheduler, no requests, non-zero 100m/200Mi"
is "$(q "$db" "SELECT COALESCE(owner_kind, 'NULL') || '/' || COALESCE(uid, 'NULL') FROM pod WHERE name = '$P'")" NULL/NULL "plain pod: no owner, no uid"

# edge cases of metadata
cat >"$T/meta.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: null-deletion
  deletionTimestamp: null
spec:
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata:
  name: loose-owner
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: cm, uid: 0c000000-0000-4000-8000-000000000001}
spec:
  containers: [{name: c, image: x}]
EOF
db=$T/meta.db
imp "$db" "$T/meta.yaml"
is "$(q "$db" "SELECT terminating FROM pod WHERE name = 'null-deletion'")" 0 "deletionTimestamp: null is not terminating"
# model.h: kp_pod_in.owner is "the controller ownerReference, fields NULL when none";
# schema: pod.owner_kind is the controller ownerReference.
is "$(q "$db" "SELECT COALESCE(owner_kind, 'NULL') || '/' || COALESCE(owner_name, 'NULL') FROM pod WHERE name = 'loose-owner'")" NULL/NULL \
	"an ownerReference without controller: true is not the controller (owner stays NULL)"

# ==== PriorityClass ====================================================================
db=$T/prio.db
imp "$db" "$D/priority.yaml"
is "$(q "$db" "SELECT group_concat(name || ':' || value || ':' || global_default || ':' || preemption_policy, ' ') FROM (SELECT * FROM priority_class ORDER BY name)")" \
	"everyday:1000:1:Never high:5000:0:PreemptLowerPriority" "priority classes stored; preemptionPolicy defaults to PreemptLowerPriority"
prio() { q "$db" "SELECT pp.priority || '/' || pp.preemption_policy || '/' || pp.missing_class FROM pod_priority pp JOIN pod p ON p.id = pp.pod_id WHERE p.name = '$1'"; }
is "$(prio p-none)" 1000/Never/0 "no priorityClassName: the globalDefault class (value and preemptionPolicy)"
is "$(prio p-high)" 5000/PreemptLowerPriority/0 "priorityClassName high: 5000"
is "$(prio p-explicit)" 42/Never/0 "explicit spec.priority wins over the class"
is "$(prio p-ghost)" 0/PreemptLowerPriority/1 "unknown class: missing_class 1"
# Two globalDefault classes (a race upstream): the Priority admission plugin picks the one
# with the LOWEST value (plugin/pkg/admission/priority/admission.go, getDefaultPriorityClass).
printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: cheap}\nvalue: 10\nglobalDefault: true\n' |
	"$KPLAN" import -q "$db" - >/dev/null 2>&1
is "$(prio p-none)" 10/PreemptLowerPriority/0 "two globalDefault classes: the lowest value (10) is the default"

# ==== PDB, Service, Namespace ==========================================================
db=$T/policy.db
imp "$db" "$D/policy.yaml"
pdb() { q "$db" "SELECT api_version || ' ' || COALESCE(min_available, '-') || ' ' || COALESCE(max_unavailable, '-') || ' ' || COALESCE($(J selector), 'NULL') || ' ' || has_status FROM pdb WHERE name = '$1'"; }
is "$(pdb web-pdb)" "policy/v1 50% - [[app In [web]] [tier In [fe]]] 0" "PDB policy/v1: minAvailable 50%, matchLabels + matchExpressions"
is "$(pdb db-pdb)" "policy/v1beta1 - 2 [[app In [db]]] 1" "PDB policy/v1beta1: maxUnavailable 2 with status"
is "$(q "$db" "SELECT disruptions_allowed || '/' || current_healthy || '/' || desired_healthy || '/' || expected_pods || '/' || $(J disrupted_pods) FROM pdb WHERE name = 'db-pdb'")" \
	"1/3/2/3/[db-1]" "PDB status: disruptionsAllowed, healthy counts, disruptedPods names"
is "$(pdb all-pdb)" "policy/v1 - 25% [] 0" "PDB selector {} is an empty selector (matches all)"
is "$(q "$db" "SELECT group_concat(name || ' ' || COALESCE($(J selector), 'NULL'), ' ; ') FROM (SELECT * FROM service ORDER BY name)")" \
	"external NULL ; web [[app In [web]] [tier In [fe]]]" "Service selector; a Service without one stores NULL"
is "$(q "$db" "SELECT group_concat(n.name || ':' || l.key || '=' || l.value, ' ') FROM namespace n JOIN namespace_label l ON l.namespace_id = n.id")" \
	"shop:env=prod shop:team=blue" "Namespace labels"

# ==== KubeSchedulerConfiguration ========================================================
db=$T/sched.db
imp "$db" "$D/sched-v1.yaml" "$D/sched-v1beta3.yaml" "$D/sched-configmap.yaml"
is "$(q "$db" "SELECT count(*) FROM scheduler_config")" 3 "3 scheduler configurations (v1, v1beta3, inside a ConfigMap)"
is "$(q "$db" "SELECT api_version || ' ' || json_extract(document, '$.percentageOfNodesToScore') || ' ' ||
	json_extract(document, '$.profiles[0].pluginConfig[0].args.scoringStrategy.type') || ' ' || json_valid(document) FROM scheduler_config WHERE source LIKE '%sched-v1.yaml#0'")" \
	"kubescheduler.config.k8s.io/v1 50 MostAllocated 1" "v1 stored as JSON with numbers and nested args"
is "$(q "$db" "SELECT api_version || ' ' || json_extract(document, '$.profiles[0].plugins.score.disabled[0].name') FROM scheduler_config WHERE source LIKE '%sched-v1beta3.yaml#0'")" \
	"kubescheduler.config.k8s.io/v1beta3 ImageLocality" "v1beta3 stored"
is "$(q "$db" "SELECT json_extract(document, '$.profiles[0].schedulerName') FROM scheduler_config WHERE source LIKE '%sched-configmap.yaml%'")" \
	from-configmap "config inside a ConfigMap's data value"
is "$(q "$db" "SELECT json_extract(counts, '$.skipped.ConfigMap') FROM import_batch")" 1 "a ConfigMap without a config is skipped and counted"

# ==== workloads ==========================================================================
db=$T/wl.db
imp "$db" "$D/workloads.yaml"
wpods() { q "$db" "SELECT count(*) FROM pod p JOIN workload w ON w.id = p.workload_id WHERE w.name = '$1'"; }
is "$(q "$db" "SELECT count(*) || '/' || (SELECT count(*) FROM pod) FROM workload")" 12/18 "12 workloads, 18 generated pods"
H=$(q "$db" "SELECT template_hash FROM workload WHERE name = 'web'")
ALPHA=bcdfghjklmnpqrstvwxz2456789
if [[ $H =~ ^[$ALPHA]{1,10}$ ]]; then pass "Deployment web: template hash '$H' in the pod-template-hash alphabet"; else fail "Deployment web: template hash '$H' in the pod-template-hash alphabet"; fi
names=$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT p.name FROM pod p JOIN workload w ON w.id = p.workload_id WHERE w.name = 'web' ORDER BY p.name)")
n_ok=0
for n in $names; do [[ $n =~ ^web-$H-[$ALPHA]{5}$ ]] && n_ok=$((n_ok + 1)); done
is "$n_ok" 3 "Deployment replicas 3: 3 pods named web-$H-XXXXX ($names)"
is "$(q "$db" "SELECT count(*) FROM pod p JOIN pod_label l ON l.pod_id = p.id WHERE p.name LIKE 'web-%' AND l.key = 'pod-template-hash' AND l.value = '$H'")" 3 \
	"Deployment pods carry pod-template-hash=$H"
is "$(q "$db" "SELECT group_concat(DISTINCT owner_kind || '/' || owner_name) FROM pod WHERE name LIKE 'web-%'")" "ReplicaSet/web-$H" \
	"Deployment pods are owned by ReplicaSet web-$H"
is "$(q "$db" "SELECT count(*) FROM pod p JOIN pod_label l ON l.pod_id = p.id WHERE p.name LIKE 'web-%' AND l.key = 'app' AND l.value = 'web'")" 3 \
	"Deployment pods carry the template labels"
is "$(preq "$db" "$(q "$db" "SELECT min(name) FROM pod WHERE name LIKE 'web-%'")" cpu)" 200 "Deployment pods request the template's 200m"
is "$(wpods one)/$(wpods zero)" 1/0 "Deployment without replicas: 1 (default); replicas 0: none"
is "$(q "$db" "SELECT group_concat(name || ':' || owner_kind || ':' || owner_name, ' ') FROM (SELECT * FROM pod WHERE name LIKE 'db-%' ORDER BY name)")" \
	"db-0:StatefulSet:db db-1:StatefulSet:db" "StatefulSet replicas 2: db-0, db-1"
is "$(q "$db" "SELECT group_concat(l.value, ' ') FROM (SELECT l.value FROM pod p JOIN pod_label l ON l.pod_id = p.id WHERE p.name LIKE 'db-%' AND l.key = 'statefulset.kubernetes.io/pod-name' ORDER BY 1) l")" \
	"db-0 db-1" "StatefulSet pods carry statefulset.kubernetes.io/pod-name"
is "$(wpods par)/$(wpods comp)/$(wpods single)/$(wpods queue)/$(wpods held)" 3/2/1/2/0 \
	"Jobs: parallelism 3 of 5 -> 3; completions 2 < parallelism 4 -> 2; defaults -> 1; work queue parallelism 2 -> 2; suspended -> 0"
is "$(q "$db" "SELECT count(*) FROM pod p JOIN pod_label l ON l.pod_id = p.id WHERE p.owner_kind = 'Job' AND p.owner_name = 'par' AND l.key = 'job-name' AND l.value = 'par'")" 3 \
	"Job pods owned by the Job, labelled job-name"
is "$(wpods legacy)/$(q "$db" "SELECT group_concat(DISTINCT owner_kind) FROM pod WHERE name LIKE 'legacy-%'")" 2/ReplicationController \
	"ReplicationController replicas 2: 2 pods owned by it"
is "$(q "$db" "SELECT $(J selector) FROM workload WHERE name = 'legacy'")" "[[app In [legacy]]]" "ReplicationController map selector"
is "$(wpods lone)/$(q "$db" "SELECT group_concat(DISTINCT owner_kind || '/' || owner_name) FROM pod WHERE name LIKE 'lone-%'")" 2/ReplicaSet/lone \
	"standalone ReplicaSet: 2 pods owned by it"
is "$(wpods agent)/$(q "$db" "SELECT COALESCE(replicas, 'NULL') FROM workload WHERE name = 'agent'")" 0/NULL "DaemonSet without nodes in the database: no pods yet, replicas NULL"
is "$(q "$db" "SELECT count(DISTINCT class_id) FROM pod WHERE name LIKE 'web-%'")" 1 "the 3 Deployment replicas share one class"

# the same file again in a second run: same counts, same pod ids
before=$(q "$db" "SELECT group_concat(id || ':' || name, ' ') FROM (SELECT * FROM pod ORDER BY id)")
nclass=$(q "$db" "SELECT count(*) FROM pod_class")
imp "$db" "$D/workloads.yaml"
is "$(q "$db" "SELECT count(*) || '/' || (SELECT count(*) FROM pod) || '/' || (SELECT count(*) FROM pod_class) FROM workload")" \
	"12/18/$nclass" "second run: same counts (workloads, pods, $nclass classes)"
is "$(q "$db" "SELECT group_concat(id || ':' || name, ' ') FROM (SELECT * FROM pod ORDER BY id)")" "$before" "second run: same pod ids and names"
# ... and a fresh database gives the same names (deterministic generation)
imp "$T/wl2.db" "$D/workloads.yaml"
is "$(q "$T/wl2.db" "SELECT group_concat(id || ':' || name, ' ') FROM (SELECT * FROM pod ORDER BY id)")" "$before" "fresh database: same ids and names"

# scaling the Deployment 3 -> 1 by re-import leaves 1 generated pod
web_ids=" $(q "$db" "SELECT group_concat(id, ' ') FROM pod WHERE name LIKE 'web-%'") "
sed 's/^  replicas: 3$/  replicas: 1/' "$D/workloads.yaml" >"$T/workloads-1.yaml"
imp "$db" "$T/workloads-1.yaml"
is "$(wpods web)/$(q "$db" "SELECT count(*) FROM pod")" 1/16 "scaled 3 -> 1: one web pod left, 16 pods in all"
left=$(q "$db" "SELECT id FROM pod WHERE name LIKE 'web-%'")
like "$web_ids" " $left " "scaled 3 -> 1: the pod left is one of the earlier three (id $left)"
imp "$db" "$D/workloads.yaml"
is "$(wpods web)" 3 "scaled back 1 -> 3: three web pods again"

# ==== live dump ============================================================================
db=$T/live.db
imp "$db" "$D/live-dump.yaml"
is "$(q "$db" "SELECT count(*) FROM pod WHERE workload_id IS NULL")/$(q "$db" "SELECT count(*) FROM pod WHERE workload_id IS NOT NULL")" 2/1 \
	"live dump: 2 running pods + exactly 1 generated (Deployment wants 3)"
is "$(q "$db" "SELECT group_concat(kind || ':' || name || ':' || COALESCE(owner_kind, '-'), ' ') FROM (SELECT * FROM workload ORDER BY id)")" \
	"Deployment:api:- ReplicaSet:api-6d4cf56db6:Deployment" "live dump: the ReplicaSet is recorded with its Deployment owner"
is "$(q "$db" "SELECT count(*) FROM pod WHERE name LIKE 'api-6d4cf56db6-%' AND workload_id IS NOT NULL")" 0 \
	"live dump: the ReplicaSet does not generate pods of its own"
gen=$(q "$db" "SELECT id || ':' || name FROM pod WHERE workload_id IS NOT NULL")
imp "$db" "$D/live-dump.yaml"
is "$(q "$db" "SELECT count(*) FROM pod WHERE workload_id IS NOT NULL")/$(q "$db" "SELECT id || ':' || name FROM pod WHERE workload_id IS NOT NULL")" "1/$gen" \
	"live dump imported again: still 1 generated pod, same id"
# the Deployment alone first (3 generated), then the full dump: never more than 3 pods
db=$T/live2.db
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: live}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers: [{name: c, image: api:1, resources: {requests: {cpu: 100m}}}]\n' >"$T/api-only.yaml"
imp "$db" "$T/api-only.yaml"
is "$(q "$db" "SELECT count(*) FROM pod")" 3 "Deployment alone: 3 generated pods"
imp "$db" "$D/live-dump.yaml"
is "$(q "$db" "SELECT count(*) FROM pod WHERE workload_id IS NULL")/$(q "$db" "SELECT count(*) FROM pod WHERE workload_id IS NOT NULL")" 2/1 \
	"then the live dump: 2 real + 1 generated, no duplicates"

# ==== scheduling classes ===================================================================
db=$T/classes.db
imp "$db" "$D/classes.yaml"
is "$(q "$db" "SELECT count(DISTINCT class_id) FROM pod WHERE workload_id IS NOT NULL")" 1 "3 identical replicas share one pod_class row"
is "$(q "$db" "SELECT count(*) FROM pod_class")" 2 "2 classes in all"
is "$(q "$db" "SELECT (SELECT class_id FROM pod WHERE name = 'twin') = (SELECT min(class_id) FROM pod WHERE workload_id IS NOT NULL)")" 1 \
	"a bare pod with the template's spec (other labels) shares the replicas' class"
is "$(q "$db" "SELECT (SELECT class_id FROM pod WHERE name = 'tolerant') <> (SELECT class_id FROM pod WHERE name = 'twin')")" 1 \
	"a pod with one more toleration gets another class"
is "$(q "$db" "SELECT count(*) FROM class_toleration WHERE class_id = (SELECT class_id FROM pod WHERE name = 'tolerant')")" 2 \
	"its class has both tolerations"

# ==== syntax ===================================================================================
db=$T/anchors.db
imp "$db" "$D/anchors.yaml"
is "$(preq "$db" anchored cpu)/$(preq "$db" anchored memory)" 500/134217728 "anchors: &req used by two containers (2 x 250m, 2 x 64Mi)"
is "$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM pod_node_selector ORDER BY key)")" "app=anchored tier=be" \
	"aliases: nodeSelector *labels; comments at odd indentation ignored"
is "$(q "$db" "SELECT count(*) FROM pod_container")" 2 "anchors: the commented-out container is not read"
db=$T/merge.db
run "$KPLAN" import "$db" "$D/anchors-merge.yaml"
is "$rc/$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM pod_node_selector ORDER BY key)" 2>/dev/null)" \
	"0/app=merged disk=ssd" "YAML merge key <<: *base is resolved as kubectl does"

# CRLF line endings
printf 'apiVersion: v1\r\nkind: Pod\r\n# a comment\r\nmetadata:\r\n  name: crlf\r\n  namespace: syn\r\n  labels:\r\n    app: plain-value\r\n    tier: "quoted value"\r\nspec:\r\n  containers:\r\n  - name: c\r\n    image: x\r\n    resources:\r\n      requests:\r\n        cpu: 150m\r\n        memory: 10Mi\r\n---\r\napiVersion: v1\r\nkind: Node\r\nmetadata:\r\n  name: crlf-node\r\nstatus:\r\n  capacity: {cpu: "2", pods: "5"}\r\n' >"$T/crlf.yaml"
db=$T/crlf.db
imp "$db" "$T/crlf.yaml"
is "$(preq "$db" crlf cpu)/$(preq "$db" crlf memory)/$(nres "$db" crlf-node cpu)" 150/10485760/2000/2000 "CRLF: pod and node read"
is "$(q "$db" "SELECT group_concat('[' || key || '=' || value || ']', '') FROM (SELECT * FROM pod_label ORDER BY key)")" "[app=plain-value][tier=quoted value]" \
	"CRLF: no carriage return left in plain or quoted values"
is "$(q "$db" "SELECT line FROM node")" 19 "CRLF: lines counted once per CRLF"

db=$T/json.db
imp "$db" "$D/list.json"
is "$(nres "$db" json-node memory)/$(preq "$db" json-pod cpu)/$(preq "$db" json-pod memory)" 4294967296/4294967296/1500/1073741824 \
	"-o json List: a Node and a Pod"
is "$(q "$db" "SELECT key || '=' || value || ':' || effect FROM node_taint")" k=v:NoExecute "-o json List: node taint"

db=$T/podlist.db
imp "$db" "$D/podlist.yaml"
is "$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT * FROM pod ORDER BY id)")/$(preq "$db" typed-a memory)" "typed-a typed-b/33554432" \
	"typed PodList: items without kind are Pods"

db=$T/multidoc.db
imp "$db" "$D/multidoc.yaml"
is "$(q "$db" "SELECT group_concat(name || '@' || line, ' ') FROM (SELECT * FROM pod ORDER BY id)")/$(q "$db" "SELECT name FROM priority_class")" \
	"doc-a@5 doc-b@12/doc-pc" "multi-document: empty and comment-only documents, '...' end marker, lines"

db=$T/quant.db
imp "$db" "$D/quantities.yaml"
is "$(nres "$db" q-node cpu)/$(nres "$db" q-node memory)/$(nres "$db" q-node pods)" 15500/16000/64424509440/68719476736/110/110 \
	"quantities as YAML ints and floats on a node (cpu: 15.5 -> 15500m)"
is "$(preq "$db" q-pod cpu)/$(preq "$db" q-pod memory)/$(preq "$db" q-pod ephemeral-storage)/$(preq "$db" q-pod nvidia.com/gpu)" \
	2250/1048576/3/1 "quantities on a pod: 0.25 + 2 cpu; ephemeral 2.5 bytes rounds up to 3; gpu: 1 limit"

# standard input
db=$T/stdin.db
run bash -c "cat '$D/pods.yaml' | '$KPLAN' import '$db' -"
is "$rc/$(q "$db" "SELECT count(*) FROM pod")" 0/4 "stdin YAML: cat f | kplan import db -"
is "$(preq "$db" full cpu)" 1250 "stdin YAML: same content as from the file"
db=$T/stdin-json.db
run bash -c "cat '$D/list.json' | '$KPLAN' import '$db' -"
is "$rc/$(q "$db" "SELECT count(*) FROM node")/$(q "$db" "SELECT count(*) FROM pod")" 0/1/1 "stdin JSON detected by content"

# a directory: recursive, sorted, only *.yaml *.yml *.json *.csv
db=$T/tree.db
imp "$db" "$D/tree"
is "$(q "$db" "SELECT group_concat(id || ':' || name, ' ') FROM (SELECT * FROM pod ORDER BY id)")" "1:tree-a 2:tree-b 3:tree-c 4:tree-d" \
	"directory: a/x.yaml, b.yaml, c.json, sub/deeper/d.yml in sorted order"
is "$(q "$db" "SELECT name || '/' || (SELECT allocatable FROM node_resource WHERE resource = 'cpu') FROM node")" tree-node/4000 \
	"directory: sub/nodes.csv imported as a node table"
is "$(q "$db" "SELECT json_extract(counts, '$.files') FROM import_batch")" 5 "directory: notes.txt, README.md, x.yaml.bak ignored (5 files read)"

# ==== Deployment pods found by their ReplicaSet's name (NAME-HASH, no RS object) ====
db=$T/rsname.db
cat >"$T/rsname.yaml" <<'EOF2'
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: api-abc12-aaaaa, namespace: n, ownerReferences: [{kind: ReplicaSet, name: api-abc12, controller: true}]}, spec: {nodeName: x, containers: [{name: c, image: i}]}, status: {phase: Running}}
- {apiVersion: v1, kind: Pod, metadata: {name: api-abc12-bbbbb, namespace: n, ownerReferences: [{kind: ReplicaSet, name: api-abc12, controller: true}]}, spec: {nodeName: x, containers: [{name: c, image: i}]}, status: {phase: Succeeded}}
- {apiVersion: v1, kind: Pod, metadata: {name: api-x-y-ccccc, namespace: n, ownerReferences: [{kind: ReplicaSet, name: api-x-y, controller: true}]}, spec: {nodeName: x, containers: [{name: c, image: i}]}, status: {phase: Running}}
- {apiVersion: v1, kind: Pod, metadata: {name: apix-1-ddddd, namespace: n, ownerReferences: [{kind: ReplicaSet, name: apix-1, controller: true}]}, spec: {nodeName: x, containers: [{name: c, image: i}]}, status: {phase: Running}}
- {apiVersion: v1, kind: Pod, metadata: {name: api-abc12-eeeee, namespace: other, ownerReferences: [{kind: ReplicaSet, name: api-abc12, controller: true}]}, spec: {nodeName: x, containers: [{name: c, image: i}]}, status: {phase: Running}}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: api, namespace: n}
  spec:
    replicas: 3
    selector: {matchLabels: {app: api}}
    template:
      metadata: {labels: {app: api}}
      spec: {containers: [{name: c, image: api:1}]}
EOF2
imp "$db" "$T/rsname.yaml"
is "$(q "$db" "SELECT count(*) FROM pod WHERE workload_id IS NOT NULL")" 2 \
	"Deployment api wants 3: 1 live pod of RS api-abc12 counts (not the Succeeded one, not api-x-y, apix-1 or another namespace): 2 generated"

done_testing
