#!/usr/bin/env bash
# 10-realworld.t — every file of the real-world corpus ($KP_SHARED_DATA/realworld,
# see its SOURCES.md) imported into a fresh database of its own: exit status,
# exact object counts, and values that prove the file was understood.  Then all
# files in one import.
#
# Expected values were worked out by hand from the files (quantities converted
# with the Kubernetes rules, effective requests with kube-scheduler-semantics.md §4.1/§4.2), not
# copied from kplan's output.
. "$(dirname "$0")/../lib.sh"

R=$KP_SHARED_DATA/realworld
NTESTS=138
if [ ! -d "$R" ]; then
	skip "shared data absent" "$NTESTS"
	done_testing
fi

# SQL: a JSON column made CSV-safe (q prints CSV): quotes dropped, commas -> spaces
J() { echo "replace(replace($1, '\"', ''), ',', ' ')"; }

# counts DB: nodes/real pods/generated pods/workloads/priority classes/pdbs/services/scheduler configs
counts() {
	q "$1" "SELECT (SELECT count(*) FROM node) || '/' || (SELECT count(*) FROM pod WHERE workload_id IS NULL) || '/' ||
		(SELECT count(*) FROM pod WHERE workload_id IS NOT NULL) || '/' || (SELECT count(*) FROM workload) || '/' ||
		(SELECT count(*) FROM priority_class) || '/' || (SELECT count(*) FROM pdb) || '/' ||
		(SELECT count(*) FROM service) || '/' || (SELECT count(*) FROM scheduler_config)"
}
# nres DB NODE RESOURCE: allocatable/capacity
nres() {
	q "$1" "SELECT COALESCE((SELECT r.allocatable || '/' || r.capacity FROM node n JOIN node_resource r ON r.node_id = n.id
		WHERE n.name = '$2' AND r.resource = '$3'), 'none')"
}
# preq DB POD RESOURCE: effective request of a pod ('none' when absent)
preq() {
	q "$1" "SELECT COALESCE((SELECT r.value FROM pod p JOIN pod_request r ON r.pod_id = p.id
		WHERE p.name = '$2' AND r.resource = '$3'), 'none')"
}
# wreq DB WORKLOAD RESOURCE: the template's effective request
wreq() {
	q "$1" "SELECT COALESCE((SELECT r.value FROM workload w JOIN class_request r ON r.class_id = w.class_id
		WHERE w.name = '$2' AND r.resource = '$3'), 'none')"
}

declare -A WANT   # file -> expected counts (see counts above)
WANT[k9s_node_minikube.json]=1/0/0/0/0/0/0/0
WANT[popeye_node_list.yaml]=5/0/0/0/0/0/0/0
WANT[insights-operator_node_ocp_nokind.json]=1/0/0/0/0/0/0/0
WANT[kwok_node_dgx_a100_gpu.yaml]=1/0/0/0/0/0/0/0
WANT[kwok_node_unquoted_int_quantities.yaml]=1/0/0/0/0/0/0/0
WANT[k9s_pod_native_sidecar_crlf.json]=0/1/0/0/0/0/0/0
WANT[k9s_pod_init_container.json]=0/1/0/0/0/0/0/0
WANT[kubectl-neat_pod_list_kind.yaml]=0/2/0/0/0/0/0/0
WANT[kubectl-neat_pod_list_kind.json]=0/2/0/0/0/0/0/0
WANT[insights-operator_pod_statefulset_antiaffinity_nokind.json]=0/1/0/0/0/0/0/0
WANT[insights-operator_static_pod_etcd_nokind.json]=0/1/0/0/0/0/0/0
WANT[k9s_daemonset_status.json]=0/0/0/1/0/0/0/0
WANT[k9s_pdb_policy_v1beta1_status.json]=0/0/0/0/0/1/0/0
WANT[k8s-website_zookeeper_statefulset_pdb_antiaffinity.yaml]=0/0/3/1/0/1/2/0
WANT[kwok_multidoc_pod_deployment_affinity.yaml]=0/1/1/1/0/0/0/0
WANT[kwok_deployment_topology_spread.yaml]=0/0/4/1/0/0/0/0
WANT[kwok_multidoc_kueue_crds_suspended_job.yaml]=0/0/0/1/0/0/0/0
WANT[nvidia_device_plugin_daemonset.yaml]=0/0/0/1/0/0/0/0
WANT[nvidia_device_plugin_daemonset_extensions_v1beta1.yaml]=0/0/0/1/0/0/0/0
WANT[nvidia_job_gpu_limit_only.yaml]=0/0/1/1/0/0/0/0
WANT[kubectl_rc_float_cpu_comments.yaml]=0/0/2/1/0/0/0/0
WANT[kwok_priorityclasses_multidoc.yaml]=0/0/0/0/2/0/0/0
WANT[kwok_kubeschedulerconfig_zero_values.yaml]=0/0/0/0/0/0/0/1
WANT[kss_ksc_v1_minimal.yaml]=0/0/0/0/0/0/0/1
WANT[kss_ksc_v1_multipoint_custom_plugin.yaml]=0/0/0/0/0/0/0/1
WANT[scheduler-plugins_ksc_v1_disable_star.yaml]=0/0/0/0/0/0/0/1
WANT[scheduler-plugins_ksc_v1_multidoc_profiles.yaml]=0/0/0/0/0/0/0/4
WANT[scheduler-plugins_ksc_v1beta3_in_configmap.yaml]=0/0/0/0/0/0/0/1
REFUSED="cluster-capacity_legacy_scheduler_config.yaml scheduler-plugins_ksc_v1beta1_comments.yaml"

# The table covers exactly the corpus (30 data files, SOURCES.md).
listed=$(printf '%s\n' "${!WANT[@]}" $REFUSED | sort | tr '\n' ' ')
present=$(cd "$R" && ls | grep -v '^SOURCES\.md$' | sort | tr '\n' ' ')
is "$present" "$listed" "the test knows every file of the corpus (30 data files)"

# ---- each file on its own ---------------------------------------------------------
declare -A DB
for f in $(printf '%s\n' "${!WANT[@]}" | sort); do
	db=$T/$f.db
	DB[$f]=$db
	run "$KPLAN" import "$db" "$R/$f"
	if [ "$rc" = 0 ]; then
		is "$(counts "$db")" "${WANT[$f]}" "$f: exit 0, counts nodes/pods/generated/workloads/pcs/pdbs/services/configs"
	else
		fail "$f: exit 0 (got $rc: $err)"
	fi
done

# k9s_node_minikube.json: memory 8163684Ki, ephemeral 16954240Ki, 25 images with 46 names
db=${DB[k9s_node_minikube.json]}
is "$(nres "$db" minikube memory)" 8359612416/8359612416 "minikube: memory 8163684Ki = 8359612416 bytes"
is "$(nres "$db" minikube ephemeral-storage)/$(nres "$db" minikube cpu)" 17361141760/17361141760/4000/4000 \
	"minikube: ephemeral-storage 16954240Ki, cpu 4"
is "$(q "$db" "SELECT count(DISTINCT seq) || '/' || count(*) FROM node_image")" 25/46 "minikube: 25 images, 46 image names"
is "$(q "$db" "SELECT size_bytes FROM node_image WHERE name = 'quay.io/kubernetes-ingress-controller/nginx-ingress-controller:0.26.1'")" \
	483167446 "minikube: image sizeBytes by any of its names"
is "$(q "$db" "SELECT created || '/' || uid || '/' || (SELECT count(*) FROM node_taint) FROM node")" \
	1577825361/a33a26f0-7688-47b6-8dbf-5a04ea7f43d4/0 "minikube: creationTimestamp 2019-12-31T20:49:21Z, uid, spec {} has no taints"
is "$(q "$db" "SELECT count(*) || '/' || sum(key = 'node-role.kubernetes.io/master' AND value = '') FROM node_label")" 6/1 \
	"minikube: 6 labels incl. the empty-valued master role"

# popeye_node_list.yaml: kind List, n1..n5, cut down by popeye
db=${DB[popeye_node_list.yaml]}
is "$(q "$db" "SELECT group_concat(name || ':' || unschedulable, ' ') FROM (SELECT * FROM node ORDER BY name)")" \
	"n1:0 n2:0 n3:0 n4:1 n5:0" "popeye: n4 is cordoned (spec.unschedulable)"
is "$(q "$db" "SELECT n.name || ' ' || t.key || '=' || t.value || ':' || t.effect FROM node_taint t JOIN node n ON n.id = t.node_id")" \
	"n2 t2=:NoSchedule" "popeye: n2 taint t2 without value"
is "$(nres "$db" n5 cpu)/$(nres "$db" n5 memory)" 100/1000/10485760/10485760 "popeye: n5 allocatable cpu 100m < capacity 1"
is "$(nres "$db" n1 ephemeral-storage)" 836350181376/836350181376 "popeye: ephemeral-storage 816748224Ki"
is "$(q "$db" "SELECT count(*) FROM node_resource r JOIN node n ON n.id = r.node_id WHERE n.name IN ('n3', 'n4')")" 0 \
	"popeye: n3/n4 have no status: no resources"
is "$(q "$db" "SELECT count(*) FROM node_image")" 0 "popeye: images: null gives no images"

# insights-operator_node_ocp_nokind.json: no apiVersion/kind, allocatable < capacity
db=${DB[insights-operator_node_ocp_nokind.json]}
N=worker-0.imeixner20210707.lab.upshift.rdu2.redhat.com
is "$(nres "$db" $N cpu)" 3500/4000 "ocp node: allocatable cpu 3500m vs capacity 4"
is "$(nres "$db" $N memory)" 7170334720/8348934144 "ocp node: memory 7002280Ki / 8153256Ki"
is "$(nres "$db" $N ephemeral-storage)" 37087380622/42401247232 "ocp node: ephemeral-storage plain bytes / 41407468Ki"
is "$(nres "$db" $N hugepages-1Gi)/$(nres "$db" $N hugepages-2Mi)/$(nres "$db" $N pods)" 0/0/0/0/250/250 \
	"ocp node: hugepages-1Gi and -2Mi 0, pods 250"
is "$(q "$db" "SELECT created FROM node")" 1625657540 "ocp node: created 2021-07-07T11:32:20Z"

# kwok_node_dgx_a100_gpu.yaml
db=${DB[kwok_node_dgx_a100_gpu.yaml]}
is "$(nres "$db" virtual-gpu-node nvidia.com/gpu)" 8/8 "dgx: nvidia.com/gpu 8"
is "$(q "$db" "SELECT seq || ' ' || key || '=' || value || ':' || effect FROM node_taint")" "0 kwok.x-k8s.io/node=fake:NoSchedule" \
	"dgx: the taint (with a trailing comment on 'taints:')"
is "$(q "$db" "SELECT count(*) FROM node_resource WHERE resource LIKE 'intel.com/mlnx_sriov_rdma%' AND allocatable = 1")" 8 \
	"dgx: 8 rdma extended resources"
is "$(nres "$db" virtual-gpu-node cpu)/$(nres "$db" virtual-gpu-node memory)/$(nres "$db" virtual-gpu-node ephemeral-storage)" \
	256000/256000/1099511627776/1099511627776/16492674416640/16492674416640 "dgx: cpu 256, memory 1Ti, ephemeral 15Ti"
is "$(q "$db" "SELECT count(*) FROM node_label")" 16 "dgx: 16 labels"

# kwok_node_unquoted_int_quantities.yaml: YAML integers as quantities
db=${DB[kwok_node_unquoted_int_quantities.yaml]}
is "$(nres "$db" kwok-node-0 cpu)/$(nres "$db" kwok-node-0 pods)/$(nres "$db" kwok-node-0 memory)" \
	32000/32000/110/110/274877906944/274877906944 "kwok node: cpu: 32 and pods: 110 as YAML ints"
is "$(q "$db" "SELECT value FROM node_label WHERE key = 'node-role.kubernetes.io/agent'")/$(q "$db" "SELECT count(*) FROM node_label")" \
	"/8" "kwok node: 8 labels, node-role.kubernetes.io/agent: \"\""

# k9s_pod_native_sidecar_crlf.json: init 333m/333Mi, sidecar 20m/40Mi, app 30m/10Mi (§4.1):
#   sum = 30 + 20 = 50; init stage = 333 (no sidecar started before it); sidecar stage 20 -> 333
db=${DB[k9s_pod_native_sidecar_crlf.json]}
is "$(preq "$db" sleep cpu)" 333 "sidecar pod (CRLF): effective cpu 333m"
is "$(preq "$db" sleep memory)" 349175808 "sidecar pod (CRLF): effective memory 333Mi = 349175808"
is "$(q "$db" "SELECT group_concat(kind || ':' || name, ' ') FROM (SELECT * FROM pod_container ORDER BY seq)")" \
	"init:init sidecar:sidecar app:sleep" "sidecar pod: containers in spec order, restartPolicy Always = sidecar"
is "$(q "$db" "SELECT c.nonzero_cpu || '/' || c.nonzero_memory FROM pod p JOIN pod_class c ON c.id = p.class_id")" 333/349175808 \
	"sidecar pod: non-zero requests equal the real ones (every container has both)"
is "$(q "$db" "SELECT namespace || '/' || node_name || '/' || phase || '/' || created || '/' || uid FROM pod")" \
	default/kind-control-plane/Running/1724464472/35079257-0ffb-4b09-b2c1-3c0d416f2523 "sidecar pod: bound, Running, created 2024-08-24T01:54:32Z"

# k9s_pod_init_container.json: init and app both 100m/70Mi, PVC volume
db=${DB[k9s_pod_init_container.json]}
is "$(preq "$db" nginx cpu)/$(preq "$db" nginx memory)" 100/73400320 "init pod: max(init, app) = 100m / 70Mi (limit 170Mi ignored)"
is "$(q "$db" "SELECT c.pvc_volumes FROM pod_class c")" 1 "init pod: one persistentVolumeClaim volume"
is "$(q "$db" "SELECT count(*) || '/' || min(seconds) || '/' || max(seconds) FROM pod_toleration WHERE operator = 'Exists' AND effect = 'NoExecute'")" \
	2/300/300 "init pod: admission tolerations with tolerationSeconds 300"

# kubectl-neat: the same two BestEffort pods as YAML and JSON
for f in kubectl-neat_pod_list_kind.yaml kubectl-neat_pod_list_kind.json; do
	db=${DB[$f]}
	is "$(q "$db" "SELECT group_concat(name || ':' || node_name || ':' || phase, ' ') FROM (SELECT * FROM pod ORDER BY name)")" \
		"t1:116-control-plane:Running t2:116-control-plane:Running" "$f: t1, t2 bound and Running"
	is "$(q "$db" "SELECT count(*) FROM pod_request")/$(q "$db" "SELECT group_concat(DISTINCT nonzero_cpu || '/' || nonzero_memory) FROM pod_class")" \
		0/100/209715200 "$f: resources {} request nothing; non-zero 100m/200Mi"
done
is "$(q "${DB[kubectl-neat_pod_list_kind.yaml]}" "SELECT group_concat(class_id, ' ') FROM (SELECT * FROM pod ORDER BY name)")" \
	"$(q "${DB[kubectl-neat_pod_list_kind.json]}" "SELECT group_concat(class_id, ' ') FROM (SELECT * FROM pod ORDER BY name)")" \
	"kubectl-neat: YAML and JSON give the same scheduling classes"

# insights-operator prometheus pod: StatefulSet owner, 7 containers, priority 2000000000
db=${DB[insights-operator_pod_statefulset_antiaffinity_nokind.json]}
is "$(q "$db" "SELECT namespace || '/' || owner_kind || '/' || owner_name FROM pod")" openshift-monitoring/StatefulSet/prometheus-k8s \
	"prometheus: no kind, read as a Pod; controller owner StatefulSet"
is "$(q "$db" "SELECT priority || '/' || missing_class FROM pod_priority")" 2000000000/0 \
	"prometheus: spec.priority 2000000000 (class system-cluster-critical: built in, known without an import)"
is "$(preq "$db" prometheus-k8s-0 cpu)/$(preq "$db" prometheus-k8s-0 memory)" 76/1262485504 "prometheus: 70m+6x1m, 1Gi+10+100+20+20+20+10Mi"
is "$(q "$db" "SELECT anti || ' ' || required || ' ' || weight || ' ' || topology_key || ' ' || $(J selector) || ' ' || $(J namespaces) FROM pod_affinity_term")" \
	"1 0 100 kubernetes.io/hostname [[prometheus In [k8s]]] [openshift-monitoring]" "prometheus: preferred anti-affinity with namespaces"
is "$(q "$db" "SELECT key || '=' || value FROM pod_node_selector")" kubernetes.io/os=linux "prometheus: nodeSelector"

# insights-operator etcd static pod: Node owner, hostNetwork, 2 init + 3 containers
db=${DB[insights-operator_static_pod_etcd_nokind.json]}
P=etcd-master-0.imeixner20210707.lab.upshift.rdu2.redhat.com
is "$(q "$db" "SELECT owner_kind FROM pod")/$(q "$db" "SELECT host_network FROM pod_class")" Node/1 "etcd: owner Node, hostNetwork"
is "$(preq "$db" $P cpu)/$(preq "$db" $P memory)" 350/901775360 "etcd: 10+300+40m > init 10m; 60+600+200Mi"
is "$(q "$db" "SELECT priority FROM pod_priority")" 2000001000 "etcd: system-node-critical priority 2000001000"
is "$(q "$db" "SELECT '[' || key || '|' || operator || '|' || value || '|' || effect || ']' FROM pod_toleration")" "[|Exists||]" \
	"etcd: tolerate-everything toleration (empty key and effect)"

# k9s_daemonset_status.json: no pods at import
db=${DB[k9s_daemonset_status.json]}
is "$(q "$db" "SELECT kind || '/' || namespace || '/' || name || '/' || COALESCE(replicas, 'NULL') FROM workload")" \
	DaemonSet/kube-system/fluentd-gcp-v3.2.0/NULL "daemonset: stored with replicas NULL"
is "$(wreq "$db" fluentd-gcp-v3.2.0 cpu)/$(wreq "$db" fluentd-gcp-v3.2.0 memory)" 100/209715200 "daemonset: template requests 100m/200Mi"
is "$(q "$db" "SELECT c.nonzero_cpu || '/' || c.nonzero_memory || '/' || c.host_network || '/' || c.priority_class FROM workload w JOIN pod_class c ON c.id = w.class_id")" \
	200/419430400/1/system-node-critical "daemonset: second container resources {} counts 100m/200Mi non-zero"
is "$(q "$db" "SELECT group_concat('[' || key || ' ' || operator || ' ' || effect || ']', '') FROM (SELECT * FROM class_toleration WHERE class_id = (SELECT class_id FROM workload) ORDER BY seq)")" \
	"[ Exists NoExecute][ Exists NoSchedule]" "daemonset: operator Exists without key (the template as written)"
is "$(q "$db" "SELECT count(*) FROM class_toleration WHERE class_id = (SELECT pod_class_id FROM workload) AND key LIKE 'node.kubernetes.io/%'")" \
	7 "daemonset: its pods get the controller's 7 tolerations (hostNetwork adds network-unavailable)"

# k9s_pdb_policy_v1beta1_status.json
db=${DB[k9s_pdb_policy_v1beta1_status.json]}
is "$(q "$db" "SELECT api_version || ' ' || min_available || ' ' || COALESCE(max_unavailable, '-') || ' ' || $(J selector) FROM pdb")" \
	"policy/v1beta1 2 - [[app In [nginx]]]" "pdb v1beta1: minAvailable 2, selector"
is "$(q "$db" "SELECT has_status || '/' || disruptions_allowed || '/' || current_healthy || '/' || desired_healthy || '/' || expected_pods FROM pdb")" \
	1/0/0/2/0 "pdb v1beta1: has_status 1, disruptionsAllowed 0, desiredHealthy 2"

# zookeeper: 2 Services, policy/v1 PDB, StatefulSet zk (3 replicas, required anti-affinity)
db=${DB[k8s-website_zookeeper_statefulset_pdb_antiaffinity.yaml]}
is "$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM pod ORDER BY name)")" "zk-0 zk-1 zk-2" "zookeeper: pods zk-0..zk-2"
is "$(q "$db" "SELECT count(*) FROM pod_affinity_term WHERE anti = 1 AND required = 1 AND topology_key = 'kubernetes.io/hostname'
	AND selector = '[[\"app\",\"In\",[\"zk\"]]]'")" 3 "zookeeper: each pod has the required anti-affinity term (selector key app)"
is "$(q "$db" "SELECT api_version || ' ' || COALESCE(min_available, '-') || ' ' || max_unavailable || ' ' || has_status FROM pdb")" \
	"policy/v1 - 1 0" "zookeeper: PDB maxUnavailable 1, no status"
is "$(q "$db" "SELECT group_concat(name || ' ' || $(J selector), ' ; ') FROM (SELECT * FROM service ORDER BY name)")" \
	"zk-cs [[app.kubernetes.io/name In [zk]]] ; zk-hs [[app.kubernetes.io/name In [zk]]]" "zookeeper: service selectors"
is "$(preq "$db" zk-1 cpu)/$(preq "$db" zk-1 memory)" 500/1073741824 "zookeeper: cpu \"0.5\" = 500m, memory 1Gi"
is "$(q "$db" "SELECT owner_kind || '/' || owner_name FROM pod WHERE name = 'zk-2'")" StatefulSet/zk "zookeeper: owner StatefulSet zk"
is "$(q "$db" "SELECT group_concat(line, ' ') FROM (SELECT line FROM service UNION ALL SELECT line FROM pdb UNION ALL SELECT line FROM workload ORDER BY 1)")" \
	"1 17 30 40" "zookeeper: documents located at lines 1, 17, 30, 40"
# The StatefulSet controller adds a persistentVolumeClaim volume per volumeClaimTemplate
# (datadir) to every pod it creates; model.h counts those in pvc_volumes.
is "$(q "$db" "SELECT group_concat(DISTINCT c.pvc_volumes) FROM pod p JOIN pod_class c ON c.id = p.class_id")" 1 \
	"zookeeper: generated pods carry the datadir PVC volume (volumeClaimTemplates)"

# kwok_multidoc_pod_deployment_affinity.yaml
db=${DB[kwok_multidoc_pod_deployment_affinity.yaml]}
is "$(q "$db" "SELECT count(*) FROM pod WHERE name = 'descheduler-trigger-a' AND workload_id IS NULL AND node_name IS NULL")" 1 \
	"kwok multidoc: bare pending pod descheduler-trigger-a"
is "$(q "$db" "SELECT group_concat(anti || ':' || required || ':' || $(J selector), ' ') FROM (SELECT a.* FROM pod_affinity_term a
	JOIN pod p ON p.id = a.pod_id WHERE p.workload_id IS NOT NULL ORDER BY a.anti)")" \
	"0:1:[[anchor In [descheduler-trigger]]] 1:1:[[app In [trigger-violation]]]" "kwok multidoc: generated pod has required affinity and anti-affinity"
is "$(q "$db" "SELECT count(*) FROM pod WHERE name LIKE 'descheduler-trigger-b-%-%' AND owner_kind = 'ReplicaSet'")" 1 \
	"kwok multidoc: Deployment replica named NAME-HASH-XXXXX, owned by a ReplicaSet"

# kwok_deployment_topology_spread.yaml
db=${DB[kwok_deployment_topology_spread.yaml]}
is "$(q "$db" "SELECT count(*) FROM pod_spread WHERE max_skew = 1 AND topology_key = 'topology.kubernetes.io/region'
	AND when_unsatisfiable = 'DoNotSchedule' AND selector = '[[\"app\",\"In\",[\"fake-app\"]]]'")" 4 "topology spread: 4 pods, constraint on region"
is "$(q "$db" "SELECT count(*) FROM pod_request")/$(q "$db" "SELECT count(DISTINCT class_id) FROM pod")" 0/1 \
	"topology spread: no resources; 4 replicas share one class"

# kwok_multidoc_kueue_crds_suspended_job.yaml: 5 unknown kinds skipped, suspended Job
db=${DB[kwok_multidoc_kueue_crds_suspended_job.yaml]}
run "$KPLAN" import "$T/kueue-again.db" "$R/kwok_multidoc_kueue_crds_suspended_job.yaml"
like "$out" "5 objects of other kinds skipped" "kueue: summary line says 5 objects of other kinds skipped"
is "$(q "$db" "SELECT json_extract(counts, '$.skipped.ClusterQueue') + json_extract(counts, '$.skipped.LocalQueue') +
	json_extract(counts, '$.skipped.Cohort') + json_extract(counts, '$.skipped.Topology') + json_extract(counts, '$.skipped.ResourceFlavor') FROM import_batch")" \
	5 "kueue: the batch counts name the 5 skipped kinds"
is "$(q "$db" "SELECT kind || '/' || replicas FROM workload")/$(q "$db" "SELECT count(*) FROM pod")" Job/0/0 "kueue: suspended Job wants 0 pods"
is "$(wreq "$db" sample-job cpu)/$(wreq "$db" sample-job memory)" 1000/209715200 "kueue: Job template requests cpu 1, 200Mi"
is "$(q "$db" "SELECT s.key || '=' || s.value FROM workload w JOIN class_node_selector s ON s.class_id = w.class_id")" type=kwok \
	"kueue: Job nodeSelector"

# nvidia device plugin DaemonSets (apps/v1 and extensions/v1beta1 without selector)
db=${DB[nvidia_device_plugin_daemonset.yaml]}
is "$(q "$db" "SELECT api_version || ' ' || line || ' ' || c.priority_class FROM workload w JOIN pod_class c ON c.id = w.class_id")" \
	"apps/v1 15 system-node-critical" "nvidia DS: after the 14-line comment header; quoted priorityClassName"
is "$(q "$db" "SELECT t.key || ' ' || t.operator || ' ' || t.effect FROM workload w JOIN class_toleration t ON t.class_id = w.class_id")" \
	"nvidia.com/gpu Exists NoSchedule" "nvidia DS: GPU toleration"
db=${DB[nvidia_device_plugin_daemonset_extensions_v1beta1.yaml]}
is "$(q "$db" "SELECT api_version || ' ' || $(J selector) FROM workload")" "extensions/v1beta1 [[name In [nvidia-device-plugin-ds]]]" \
	"nvidia DS v1beta1: no spec.selector, defaulted from the template labels"

# nvidia_job_gpu_limit_only.yaml: request defaulted from the limit
db=${DB[nvidia_job_gpu_limit_only.yaml]}
P=$(q "$db" "SELECT name FROM pod")
is "$(preq "$db" "$P" nvidia.com/gpu)" 1 "nvidia job: nvidia.com/gpu request 1 from limits only"
is "$(q "$db" "SELECT owner_kind || '/' || owner_name || '/' || phase FROM pod")" Job/j-e2e-1/Pending "nvidia job: one pending pod owned by the Job"

# kubectl_rc_float_cpu_comments.yaml: cpu: 0.5 (YAML float) as a limit
db=${DB[kubectl_rc_float_cpu_comments.yaml]}
is "$(q "$db" "SELECT group_concat(DISTINCT r.value) FROM pod_request r WHERE r.resource = 'cpu'")/$(q "$db" "SELECT count(*) FROM pod_request")" \
	500/2 "rc: cpu 0.5 -> 500m request (from the limit), both pods"
is "$(q "$db" "SELECT kind || ' ' || replicas || ' ' || $(J selector) FROM workload")" "ReplicationController 2 [[app In [cassandra]]]" \
	"rc: 2 replicas, selector defaulted from the template labels"
is "$(q "$db" "SELECT count(*) FROM pod WHERE owner_kind = 'ReplicationController' AND owner_name = 'cassandra' AND name LIKE 'cassandra-_____'")" 2 \
	"rc: pods named cassandra-XXXXX owned by the RC"

# kwok_priorityclasses_multidoc.yaml
db=${DB[kwok_priorityclasses_multidoc.yaml]}
is "$(q "$db" "SELECT group_concat(name || ':' || value || ':' || global_default || ':' || preemption_policy, ' ') FROM (SELECT * FROM priority_class ORDER BY value)")" \
	"low-priority:100:0:PreemptLowerPriority high-priority:200:0:PreemptLowerPriority" "priority classes: values, globalDefault false"
is "$(q "$db" "SELECT description FROM priority_class WHERE name = 'high-priority'")" "This priority class is for high-priority pods." \
	"priority classes: description"
# resolution through pod_priority: a pod naming the class gets its value
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: hp}\nspec:\n  priorityClassName: high-priority\n  containers: [{name: c, image: x}]\n' |
	"$KPLAN" import -q "$db" - >/dev/null 2>&1
is "$(q "$db" "SELECT pp.priority || '/' || pp.missing_class FROM pod_priority pp JOIN pod p ON p.id = pp.pod_id WHERE p.name = 'hp'")" 200/0 \
	"priority classes: priorityClassName high-priority resolves to 200 via pod_priority"

# KubeSchedulerConfiguration documents stored as JSON
db=${DB[kwok_kubeschedulerconfig_zero_values.yaml]}
is "$(q "$db" "SELECT json_type(document, '$.clientConnection.qps') || ' ' || json_extract(document, '$.clientConnection.qps') || ' ' ||
	json_type(document, '$.leaderElection.leaderElect') || ' ' || json_extract(document, '$.leaderElection.leaseDuration') || ' ' ||
	COALESCE(json_type(document, '$.profiles'), 'absent') FROM scheduler_config")" "integer 0 null 0s absent" \
	"zero values: qps 0 integer, leaderElect null, 0s string, no profiles"
db=${DB[kss_ksc_v1_minimal.yaml]}
is "$(q "$db" "SELECT api_version || ' ' || json_extract(document, '$.kind') || ' ' || (SELECT count(*) FROM json_each(document)) FROM scheduler_config")" \
	"kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration 2" "minimal: kind before apiVersion, nothing else"
db=${DB[kss_ksc_v1_multipoint_custom_plugin.yaml]}
is "$(q "$db" "SELECT json_extract(document, '$.profiles[0].plugins.multiPoint.enabled[0].name') || ' ' ||
	json_extract(document, '$.profiles[0].plugins.multiPoint.enabled[0].weight') FROM scheduler_config")" "NodeNumber 10" \
	"multiPoint: out-of-tree plugin NodeNumber, weight 10"
db=${DB[scheduler-plugins_ksc_v1_disable_star.yaml]}
is "$(q "$db" "SELECT json_extract(document, '$.profiles[0].plugins.score.disabled[0].name') || ' ' ||
	json_extract(document, '$.profiles[0].pluginConfig[0].args.resources[0].weight') || ' ' ||
	json_extract(document, '$.profiles[0].pluginConfig[0].args.resources[1].weight') FROM scheduler_config")" "* 1000000 1" \
	"disable star: disabled '*', resource weights 1000000/1"
db=${DB[scheduler-plugins_ksc_v1_multidoc_profiles.yaml]}
is "$(q "$db" "SELECT group_concat(json_extract(document, '$.profiles[0].schedulerName'), ' ') FROM (SELECT * FROM scheduler_config ORDER BY line)")" \
	"default-scheduler cost-aware-scheduler freshness-aware-scheduler stable-nodes-scheduler" "multidoc: four documents in order"
is "$(q "$db" "SELECT group_concat(substr(source, instr(source, '#')), ' ') FROM (SELECT * FROM scheduler_config ORDER BY line)")" \
	"#0 #1 #2 #3" "multidoc: sources FILE#0..#3"
db=${DB[scheduler-plugins_ksc_v1beta3_in_configmap.yaml]}
is "$(q "$db" "SELECT api_version || ' ' || json_extract(document, '$.profiles[0].schedulerName') || ' ' ||
	json_extract(document, '$.profiles[0].plugins.score.disabled[0].name') || ' ' ||
	json_extract(document, '$.profiles[0].plugins.score.enabled[0].weight') FROM scheduler_config")" \
	"kubescheduler.config.k8s.io/v1beta3 network-aware-scheduler NodeResourcesFit 5" "v1beta3 inside a ConfigMap (block scalar, no final newline)"
is "$(q "$db" "SELECT json_extract(counts, '$.skipped.ConfigMap') IS NULL FROM import_batch")" 1 \
	"v1beta3: the carrying ConfigMap is not counted as skipped"

# ---- the two files kplan refuses ----------------------------------------------------
run "$KPLAN" import "$T/legacy.db" "$R/cluster-capacity_legacy_scheduler_config.yaml"
is "$rc" 1 "legacy scheduler settings dump: exit 1"
like "$err" "cluster-capacity_legacy_scheduler_config.yaml:1:1: " "legacy: message names FILE:1:1"
like "$err" "not a KubeSchedulerConfiguration" "legacy: says it is not a KubeSchedulerConfiguration"
is "$(digest "$T/legacy.db")" absent "legacy: no database left behind"
run "$KPLAN" import "$T/v1beta1.db" "$R/scheduler-plugins_ksc_v1beta1_comments.yaml"
is "$rc" 1 "v1beta1 scheduler config: exit 1"
like "$err" "'kubescheduler.config.k8s.io/v1beta1' is not supported" "v1beta1: reason names the apiVersion"
is "$(digest "$T/v1beta1.db")" absent "v1beta1: no database left behind"

# ---- everything in one import -----------------------------------------------------
ALL=()
for f in $(printf '%s\n' "${!WANT[@]}" | sort); do ALL+=("$R/$f"); done
# The corpus holds the same objects twice: the kubectl-neat pods (YAML and JSON) and
# the nvidia DaemonSet (apps/v1 and extensions/v1beta1).  One import rejects
# duplicates (importers/import.h) and leaves nothing behind.
run "$KPLAN" import "$T/all-strict.db" "${ALL[@]}"
is "$rc" 1 "all 28 files in one import: the duplicate objects stop it (exit 1)"
like "$err" "duplicate object in one import" "all 28 files: message says duplicate"
is "$(digest "$T/all-strict.db")" absent "all 28 files: no database left behind"

# With --skip-invalid the 3 duplicates are reported and everything else imported.
db=$T/all.db
run "$KPLAN" import --skip-invalid "$db" "${ALL[@]}"
is "$rc" 0 "all 28 files, --skip-invalid: exit 0"
is "$(printf '%s\n' "$err" | grep -c 'duplicate object in one import')" 3 "all 28 files: 3 duplicates reported (t1, t2, the DaemonSet)"
# totals = per-file counts above, each duplicate once:
# nodes 1+5+1+1+1; pods 1+1+2+1+1+1; generated 3+1+4+1+2 from the replicated workloads
# + 7 DaemonSet pods (the nvidia plugin on every node but n2 and virtual-gpu-node, whose
# taints it does not tolerate; the fluentd DaemonSet's nodeSelector matches no node);
# workloads 8; pcs 2; pdbs 2; services 2; configs 1+1+1+1+4+1
is "$(counts "$db")" 9/7/18/8/2/2/2/9 "all 28 files: totals"
is "$(q "$db" "SELECT group_concat(daemon_node, ' ') FROM (SELECT daemon_node FROM pod WHERE owner_kind = 'DaemonSet' ORDER BY 1)")" \
	"kwok-node-0 minikube n1 n3 n4 n5 worker-0.imeixner20210707.lab.upshift.rdu2.redhat.com" \
	"all 28 files: one nvidia plugin pod per node whose taints it tolerates"
is "$(q "$db" "SELECT json_extract(counts, '$.files') || '/' || json_extract(counts, '$.invalid') FROM import_batch")" 28/3 "all 28 files: batch counts"
like "$out" "9 nodes, 7 pods, 8 workloads, 18 pending pods generated from workloads" "all 28 files: summary line"
is "$(q "$db" "SELECT api_version FROM workload WHERE name = 'nvidia-device-plugin-daemonset'")" apps/v1 \
	"all 28 files: the first DaemonSet (sorted order) is kept"

# Without the second copies the import is clean.
db=$T/all-dedup.db
DEDUP=()
for p in "${ALL[@]}"; do
	case $p in */kubectl-neat_pod_list_kind.json | */nvidia_device_plugin_daemonset_extensions_v1beta1.yaml) ;; *) DEDUP+=("$p") ;; esac
done
run "$KPLAN" import "$db" "${DEDUP[@]}"
is "$rc" 0 "26 files without the second copies: exit 0"
is "$(counts "$db")" 9/7/18/8/2/2/2/9 "26 files: same totals"
is "$(q "$db" "SELECT count(*) FROM pod p JOIN pod_request r ON r.pod_id = p.id WHERE p.name = 'sleep' AND
	((r.resource = 'cpu' AND r.value = 333) OR (r.resource = 'memory' AND r.value = 349175808))")" 2 "26 files: the sidecar pod keeps 333m/333Mi"
is "$(q "$db" "SELECT count(*) FROM pod WHERE workload_id IS NOT NULL AND batch_id = 1")" 18 "26 files: generated pods belong to the batch"

done_testing
