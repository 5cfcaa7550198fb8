#!/usr/bin/env bash
# 11-openb.t — the Alibaba openb GPU trace ($KP_SHARED_DATA/openb, SOURCE.md)
# imported through the CSV importer (docs/csv.md "openb trace").
#
# Expected numbers come from the trace itself (SOURCE.md: 1,213 GPU nodes with
# 6,212 GPUs, 1,523 nodes in all, 8,152 pods per list) and from rows read off
# the CSV files by hand; they are not copied from kplan's output.
. "$(dirname "$0")/../lib.sh"

D=$KP_SHARED_DATA/openb
NTESTS=44
if [ ! -d "$D" ]; then
	skip "shared data absent" "$NTESTS"
	done_testing
fi

GPU=alibabacloud.com/gpu-milli
MODEL=alibabacloud.com/gpu-card-model
MIB=1048576

# req DB POD RESOURCE: one effective request of one openb pod ('none' when absent)
req() { q "$1" "SELECT COALESCE((SELECT r.value FROM pod p JOIN pod_request r ON r.pod_id = p.id
	WHERE p.namespace = 'openb' AND p.name = '$2' AND r.resource = '$3'), 'none')"; }
nres() { q "$1" "SELECT r.allocatable || '/' || r.capacity FROM node n JOIN node_resource r ON r.node_id = n.id
	WHERE n.name = '$2' AND r.resource = '$3'"; }
nlabel() { q "$1" "SELECT COALESCE((SELECT l.value FROM node n JOIN node_label l ON l.node_id = n.id
	WHERE n.name = '$2' AND l.key = '$3'), 'none')"; }
plabel() { q "$1" "SELECT COALESCE((SELECT l.value FROM pod p JOIN pod_label l ON l.pod_id = p.id
	WHERE p.name = '$2' AND l.key = '$3'), 'none')"; }

# ---- GPU nodes + default pod list -------------------------------------------
db=$T/default.db
run "$KPLAN" import "$db" "$D/openb_node_list_gpu_node.csv" "$D/openb_pod_list_default.csv"
is "$rc" 0 "gpu nodes + default pods: exit 0"
like "$out" "1213 nodes, 8152 pods" "summary line counts 1213 nodes and 8152 pods"
is "$(q "$db" "SELECT count(*) FROM node")" 1213 "1213 nodes"
is "$(q "$db" "SELECT count(*) FROM pod")" 8152 "8152 pods"
is "$(q "$db" "SELECT count(*) FROM pod WHERE namespace = 'openb' AND node_name IS NULL AND phase = 'Pending'")" 8152 \
	"every trace pod is pending in namespace openb, whatever its trace phase"
is "$(q "$db" "SELECT count(*) FROM workload")" 0 "no workloads"
is "$(q "$db" "SELECT sum(allocatable) FROM node_resource WHERE resource = '$GPU'")" 6212000 \
	"total allocatable $GPU = 6212 GPUs x 1000"
is "$(q "$db" "SELECT sum(capacity) FROM node_resource WHERE resource = '$GPU'")" 6212000 "capacity = allocatable"
is "$(q "$db" "SELECT sum(allocatable) FROM node_resource WHERE resource = 'cpu'")" 107018000 "total node cpu (sum of cpu_milli)"
is "$(q "$db" "SELECT sum(allocatable) FROM node_resource WHERE resource = 'memory'")" 528302452244480 \
	"total node memory (sum of memory_mib x 1 MiB)"
is "$(q "$db" "SELECT count(*) FROM node_resource WHERE resource = 'pods' AND allocatable = 110")" 1213 "pods 110 on every node"
is "$(q "$db" "SELECT sum(value) FROM pod_request WHERE resource = '$GPU'")" 6086800 \
	"total pod $GPU = sum of num_gpu x gpu_milli"
is "$(q "$db" "SELECT count(DISTINCT pod_id) FROM pod_request WHERE resource = '$GPU'")" 7064 \
	"7064 GPU pods; the 1088 CPU-only pods request no $GPU"
is "$(q "$db" "SELECT sum(value) FROM pod_request WHERE resource = 'cpu'")" 85436012 "total pod cpu"
is "$(q "$db" "SELECT sum(value) FROM pod_request WHERE resource = 'memory'")" 318291271745536 "total pod memory"
is "$(q "$db" "SELECT count(*) FROM pod_label WHERE key = 'alibabacloud.com/qos' AND value = 'Guaranteed'")" 7 \
	"qos label: 7 Guaranteed pods"

# openb-node-0000,64000,262144,2,P100
is "$(nres "$db" openb-node-0000 cpu)" 64000/64000 "openb-node-0000 cpu 64000m"
is "$(nres "$db" openb-node-0000 memory)" "$((262144 * MIB))/$((262144 * MIB))" "openb-node-0000 memory 256Gi"
is "$(nres "$db" openb-node-0000 "$GPU")" 2000/2000 "openb-node-0000 $GPU 2000"
is "$(nlabel "$db" openb-node-0000 $MODEL)" P100 "openb-node-0000 card model P100"
is "$(nlabel "$db" openb-node-0000 alibabacloud.com/gpu-count)" 2 "openb-node-0000 gpu-count 2"
is "$(nlabel "$db" openb-node-0000 kubernetes.io/hostname)" openb-node-0000 "hostname label"
# openb-node-1212,96000,393216,8,G2 (last row)
is "$(nres "$db" openb-node-1212 "$GPU")" 8000/8000 "openb-node-1212 (last row) $GPU 8000"
# openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0
is "$(req "$db" openb-pod-0000 cpu),$(req "$db" openb-pod-0000 memory),$(req "$db" openb-pod-0000 $GPU)" \
	"12000,$((16384 * MIB)),1000" "openb-pod-0000 requests cpu 12000m, memory 16Gi, gpu-milli 1000"
is "$(q "$db" "SELECT created FROM pod WHERE name = 'openb-pod-0000'")" 0 "openb-pod-0000 created at 0 (trace clock)"
is "$(plabel "$db" openb-pod-0000 alibabacloud.com/qos),$(plabel "$db" openb-pod-0000 alibabacloud.com/trace-phase)" \
	"LS,Running" "openb-pod-0000 labels qos=LS, trace-phase=Running"
# openb-pod-0001,6000,12288,1,460 — GPU sharing
is "$(req "$db" openb-pod-0001 $GPU)" 460 "openb-pod-0001 shares a GPU: gpu-milli 460"
# openb-pod-0005,20000,65536,0,0 — CPU only
is "$(req "$db" openb-pod-0005 $GPU),$(req "$db" openb-pod-0005 cpu)" "none,20000" \
	"openb-pod-0005 (CPU only) has no gpu-milli request"
# openb-pod-0017,88000,327680,8,1000,,Burstable,Succeeded,9437497 — 8 GPUs
is "$(req "$db" openb-pod-0017 $GPU),$(q "$db" "SELECT phase || ' ' || created FROM pod WHERE name = 'openb-pod-0017'")" \
	"8000,Pending 9437497" "openb-pod-0017: 8 x 1000 gpu-milli; trace phase Succeeded still pending"
# openb-pod-1523,14000,0,1,1000 — zero memory left out
is "$(req "$db" openb-pod-1523 memory)" none "openb-pod-1523: memory_mib 0 gives no memory request"
is "$(q "$db" "SELECT count(*) FROM pod_node_affinity")" 0 "default list: no gpu_spec, no node affinity"

# ---- gpuspec33: GPU-model constraints -----------------------------------------
db=$T/spec.db
run "$KPLAN" import --format openb "$db" "$D/openb_node_list_gpu_node.csv" "$D/openb_pod_list_gpuspec33.csv"
is "$rc" 0 "--format openb gpu nodes + gpuspec33: exit 0"
is "$(q "$db" "SELECT (SELECT count(*) FROM node) || '/' || (SELECT count(*) FROM pod)")" 1213/8152 "1213 nodes, 8152 pods"
is "$(q "$db" "SELECT count(DISTINCT pod_id) FROM pod_node_affinity WHERE required = 1")" 2388 \
	"2388 pods with a gpu_spec get required node affinity"
is "$(q "$db" "SELECT count(*) FROM pod_node_affinity WHERE required = 1 AND (term <> 0 OR seq <> 0 OR field <> 0
	OR key <> '$MODEL' OR operator <> 'In')")" 0 "each is one term: $MODEL In [...]"
# aff POD: its required terms as "TERM:KEY OP V1|V2..." (q prints CSV, so no commas or quotes)
aff() { q "$db" "SELECT group_concat(a.term || ':' || a.key || ' ' || a.operator || ' ' ||
		(SELECT group_concat(j.value, '|') FROM json_each(a.vals) j), ' ; ')
	FROM pod p JOIN pod_node_affinity a ON a.pod_id = p.id WHERE p.name = '$1' AND a.required = 1"; }
is "$(aff openb-pod-0009)" "0:$MODEL In V100M16|V100M32" "openb-pod-0009: V100M16|V100M32"
is "$(aff openb-pod-0012)" "0:$MODEL In T4" "openb-pod-0012: T4"
is "$(aff openb-pod-0527)" "0:$MODEL In V100M16|V100M32" "openb-pod-0527: V100M16|V100M32|V100M32, repeat dropped"
is "$(aff openb-pod-1444)" "0:$MODEL In A10|G2|P100|T4|V100M16|V100M32" \
	"openb-pod-1444: six models, repeat dropped"

# ---- all nodes (GPU and CPU-only) ----------------------------------------------
db=$T/all.db
run "$KPLAN" import "$db" "$D/openb_node_list_all_node.csv"
is "$rc,$(q "$db" "SELECT count(*) FROM node")" 0,1523 "all_node: 1523 nodes"
is "$(q "$db" "SELECT count(*) FROM node n WHERE NOT EXISTS (SELECT 1 FROM node_resource r WHERE r.node_id = n.id
	AND r.resource = '$GPU')")" 310 "310 CPU-only nodes advertise no $GPU"
is "$(nlabel "$db" openb-node-0000 alibabacloud.com/gpu-count),$(nlabel "$db" openb-node-0000 $MODEL)" 0,none \
	"CPU-only node: gpu-count 0 and no card-model label"
db=$T/all2.db
run "$KPLAN" import --format openb "$db" "$D/openb_node_list_all_node.csv"
is "$rc,$(q "$db" "SELECT count(*) FROM node"),$(q "$db" "SELECT sum(allocatable) FROM node_resource WHERE resource = '$GPU'")" \
	0,1523,6212000 "--format openb all_node: 1523 nodes, 6212 GPUs"

# --format openb insists on the openb header
printf 'node,cpu,memory\nn1,4,8Gi\n' >"$T/kplan-nodes.csv"
run "$KPLAN" import --format openb "$T/bad.db" "$T/kplan-nodes.csv"
is "$rc,$(digest "$T/bad.db")" 1,absent "--format openb rejects a kplan node table (exit 1, no database)"

done_testing
