#!/usr/bin/env bash
# 11-openb.t — the Alibaba openb GPU trace ($KP_SHARED_DATA/openb, SOURCE.md)
# imported through the CSV importer (docs/csv.md "openb trace").
#
# Expected numbers come from the trace itself (SOURCE.md: 1,213 GPU nodes with
# 6,212 GPUs, 1,523 nodes in all, 8,152 pods per list) and from rows read off
# the CSV files by hand; they are not copied from kplan's output.
#
# The GPUs are DRA devices (importers/openb.c): a GPU node publishes the
# ResourceSlice <node>-gpus (driver gpu.openb.kplan.io, pool = node, devices
# gpu-0.. with capacity milli = 1000), a GPU pod claims from the template of
# its shape (gpu-share-<milli>: one device, gpu_milli of it; gpu-whole-<n>: n
# devices, all 1000), and nothing asks or offers the scalar $GPU any more.
. "$(dirname "$0")/../lib.sh"

D=$KP_SHARED_DATA/openb
NTESTS=56
if [ ! -d "$D" ]; then
	skip "shared data absent" "$NTESTS"
	done_testing
fi

GPU=alibabacloud.com/gpu-milli
DRV=gpu.openb.kplan.io
MODEL=alibabacloud.com/gpu-card-model
MIB=1048576

# req DB POD RESOURCE: one effective request of one openb pod ('none' when absent)
req() { q "$1" "SELECT COALESCE((SELECT r.value FROM pod p JOIN pod_request r ON r.pod_id = p.id
	WHERE p.namespace = 'openb' AND p.name = '$2' AND r.resource = '$3'), 'none')"; }
nres() { q "$1" "SELECT r.allocatable || '/' || r.capacity FROM node n JOIN node_resource r ON r.node_id = n.id
	WHERE n.name = '$2' AND r.resource = '$3'"; }
nlabel() { q "$1" "SELECT COALESCE((SELECT l.value FROM node n JOIN node_label l ON l.node_id = n.id
	WHERE n.name = '$2' AND l.key = '$3'), 'none')"; }
# devs DB NODE: the devices of NODE's slice, "NAME:MILLI:MODEL" in slice order
devs() { q "$1" "SELECT group_concat(x, ' ') FROM (SELECT d.name || ':' || c.value || ':' || COALESCE(a.value, 'none') AS x
	FROM resource_slice s JOIN slice_device d ON d.slice_id = s.id
	JOIN device_capacity c ON c.device_id = d.id AND c.domain = '$DRV' AND c.name = 'milli'
	LEFT JOIN device_attribute a ON a.device_id = d.id AND a.domain = '$DRV' AND a.name = 'model'
	WHERE s.node_name = '$2' ORDER BY d.seq)"; }
# claim DB POD: the template its claim "gpu" names and what it asks: "TEMPLATE COUNT x milli=Q"
claim() { q "$1" "SELECT COALESCE((SELECT pc.template || ' ' || r.count || ' x ' || c.name || '=' || c.quantity
	FROM pod p JOIN pod_resource_claim pc ON pc.pod_id = p.id AND pc.name = 'gpu'
	JOIN resource_claim_template t ON t.namespace = p.namespace AND t.name = pc.template
	JOIN claim_request r ON r.spec_id = t.spec_id AND r.device_class = '$DRV'
	JOIN claim_request_capacity c ON c.spec_id = r.spec_id AND c.request = r.request
	WHERE p.namespace = 'openb' AND p.name = '$2'), 'none')"; }
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
is "$(q "$db" "SELECT count(*) FROM node_resource WHERE resource = '$GPU'")" 0 "no node offers the scalar $GPU"
is "$(q "$db" "SELECT count(*) || '/' || sum(name = node_name || '-gpus' AND pool = node_name AND driver = '$DRV'
	AND pool_slice_count = 1) FROM resource_slice")" 1213/1213 \
	"a ResourceSlice <node>-gpus per GPU node: driver $DRV, pool = the node, one slice in the pool"
is "$(q "$db" "SELECT count(*) || '/' || sum(d.allow_multiple_allocations) || '/' || sum(c.value)
	FROM slice_device d JOIN device_capacity c ON c.device_id = d.id AND c.domain = '$DRV' AND c.name = 'milli'")" \
	6212/6212/6212000 "6212 GPU devices, each shareable (allowMultipleAllocations) with milli 1000"
is "$(q "$db" "SELECT c.name || ' ' || replace(s.expression, '\"', '') FROM device_class c
	JOIN device_class_selector s ON s.class_id = c.id")" "$DRV device.driver == $DRV" "one DeviceClass $DRV selecting the driver's devices"
is "$(q "$db" "SELECT sum(allocatable) FROM node_resource WHERE resource = 'cpu'")" 107018000 "total node cpu (sum of cpu_milli)"
is "$(q "$db" "SELECT sum(allocatable) FROM node_resource WHERE resource = 'memory'")" 528302452244480 \
	"total node memory (sum of memory_mib x 1 MiB)"
is "$(q "$db" "SELECT count(*) FROM node_resource WHERE resource = 'pods' AND allocatable = 110")" 1213 "pods 110 on every node"
is "$(q "$db" "SELECT count(*) FROM pod_request WHERE resource = '$GPU'")" 0 "no pod requests the scalar $GPU"
is "$(q "$db" "SELECT sum(r.count * c.value) FROM pod_resource_claim pc
	JOIN resource_claim_template t ON t.namespace = 'openb' AND t.name = pc.template
	JOIN claim_request r ON r.spec_id = t.spec_id
	JOIN claim_request_capacity c ON c.spec_id = r.spec_id AND c.request = r.request AND c.name = 'milli'")" 6086800 \
	"the pods' claims ask sum of num_gpu x gpu_milli"
is "$(q "$db" "SELECT count(DISTINCT pod_id) || '/' || count(*) FROM pod_resource_claim")" 7064/7064 \
	"7064 GPU pods claim once each; the 1088 CPU-only pods claim nothing"
is "$(q "$db" "SELECT count(*) || '/' || count(DISTINCT name) FROM resource_claim_template WHERE namespace = 'openb'")" 24/24 \
	"24 shapes, a template each, stored once"
is "$(q "$db" "SELECT count(*) || '/' || sum(generated) FROM resource_claim")" 7064/7064 \
	"a claim generated from its template for each GPU pod"
is "$(q "$db" "SELECT count(created) FROM pod")" 0 "no pod has a creation time: the queue takes them in file order"
is "$(q "$db" "SELECT sum(value) FROM pod_request WHERE resource = 'cpu'")" 85436012 "total pod cpu"
is "$(q "$db" "SELECT sum(value) FROM pod_request WHERE resource = 'memory'")" 318291271745536 "total pod memory"
is "$(q "$db" "SELECT count(*) FROM pod_label WHERE key = 'alibabacloud.com/qos' AND value = 'Guaranteed'")" 7 \
	"qos label: 7 Guaranteed pods"

# openb-node-0000,64000,262144,2,P100
is "$(nres "$db" openb-node-0000 cpu)" 64000/64000 "openb-node-0000 cpu 64000m"
is "$(nres "$db" openb-node-0000 memory)" "$((262144 * MIB))/$((262144 * MIB))" "openb-node-0000 memory 256Gi"
is "$(nres "$db" openb-node-0000 "$GPU")" "" "openb-node-0000: no scalar $GPU"
is "$(devs "$db" openb-node-0000)" "gpu-0:1000:P100 gpu-1:1000:P100" "openb-node-0000: 2 P100 devices of 1000 milli"
is "$(nlabel "$db" openb-node-0000 $MODEL)" P100 "openb-node-0000 card model P100"
is "$(nlabel "$db" openb-node-0000 alibabacloud.com/gpu-count)" 2 "openb-node-0000 gpu-count 2"
is "$(nlabel "$db" openb-node-0000 kubernetes.io/hostname)" openb-node-0000 "hostname label"
# openb-node-1212,96000,393216,8,G2 (last row)
is "$(devs "$db" openb-node-1212)" "gpu-0:1000:G2 gpu-1:1000:G2 gpu-2:1000:G2 gpu-3:1000:G2 gpu-4:1000:G2 gpu-5:1000:G2 gpu-6:1000:G2 gpu-7:1000:G2" \
	"openb-node-1212 (last row): 8 G2 devices"
# openb-pod-0000,12000,16384,1,1000,,LS,Running,0,12537496,0
is "$(req "$db" openb-pod-0000 cpu),$(req "$db" openb-pod-0000 memory),$(claim "$db" openb-pod-0000)" \
	"12000,$((16384 * MIB)),gpu-whole-1 1 x milli=1000" \
	"openb-pod-0000 requests cpu 12000m, memory 16Gi; claims one whole GPU"
is "$(q "$db" "SELECT COALESCE(created, 'none') FROM pod WHERE name = 'openb-pod-0000'"),$(plabel "$db" openb-pod-0000 alibabacloud.com/creation-time)" \
	"none,0" "openb-pod-0000: creation_time 0 (trace clock) is the label alibabacloud.com/creation-time"
is "$(plabel "$db" openb-pod-0000 alibabacloud.com/qos),$(plabel "$db" openb-pod-0000 alibabacloud.com/trace-phase)" \
	"LS,Running" "openb-pod-0000 labels qos=LS, trace-phase=Running"
# openb-pod-0001,6000,12288,1,460 — GPU sharing
is "$(claim "$db" openb-pod-0001)" "gpu-share-460 1 x milli=460" "openb-pod-0001 shares a GPU: 460 milli of one device"
is "$(q "$db" "SELECT pc.containers FROM pod p JOIN pod_resource_claim pc ON pc.pod_id = p.id WHERE p.name = 'openb-pod-0001'")" \
	'"[{""container"":""openb-pod-0001"",""request"":null}]"' "openb-pod-0001: its container names the claim"
# openb-pod-0005,20000,65536,0,0 — CPU only
is "$(claim "$db" openb-pod-0005),$(req "$db" openb-pod-0005 cpu)" "none,20000" \
	"openb-pod-0005 (CPU only) claims no GPU"
# openb-pod-0017,88000,327680,8,1000,,Burstable,Succeeded,9437497 — 8 GPUs
is "$(claim "$db" openb-pod-0017),$(q "$db" "SELECT phase FROM pod WHERE name = 'openb-pod-0017'") $(plabel "$db" openb-pod-0017 alibabacloud.com/creation-time)" \
	"gpu-whole-8 8 x milli=1000,Pending 9437497" "openb-pod-0017: 8 whole GPUs; trace phase Succeeded still pending"
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
is "$(q "$db" "SELECT count(*) FROM node n WHERE NOT EXISTS (SELECT 1 FROM resource_slice s WHERE s.node_name = n.name)")" \
	310 "310 CPU-only nodes publish no ResourceSlice"
is "$(nlabel "$db" openb-node-0000 alibabacloud.com/gpu-count),$(nlabel "$db" openb-node-0000 $MODEL)" 0,none \
	"CPU-only node: gpu-count 0 and no card-model label"
db=$T/all2.db
run "$KPLAN" import --format openb "$db" "$D/openb_node_list_all_node.csv"
is "$rc,$(q "$db" "SELECT count(*) FROM node"),$(q "$db" "SELECT count(*) || '/' || sum(value) FROM device_capacity WHERE name = 'milli'")" \
	0,1523,6212/6212000 "--format openb all_node: 1523 nodes, 6212 GPUs"

# --format openb insists on the openb header
printf 'node,cpu,memory\nn1,4,8Gi\n' >"$T/kplan-nodes.csv"
run "$KPLAN" import --format openb "$T/bad.db" "$T/kplan-nodes.csv"
is "$rc,$(digest "$T/bad.db")" 1,absent "--format openb rejects a kplan node table (exit 1, no database)"

# a pod shares one GPU or takes whole ones: a share over several GPUs and more
# than one GPU's milli are refused (importers/openb.c)
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,2,500\n' >"$T/spread.csv"
run "$KPLAN" import "$T/spread.db" "$T/spread.csv"
is "$rc,$(digest "$T/spread.db")" 1,absent "num_gpu 2 x gpu_milli 500: exit 1, no database"
like "$err" "spread.csv:2:5: Pod openb/p1: column 'gpu_milli': 500 milli on each of 2 GPUs (a pod shares one GPU or takes whole ones: num_gpu 1, or gpu_milli 1000)" \
	"... the message names the row, the column and the rule"
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli\np1,1,1,1,1200\np2,1,1,1,1000\n' >"$T/over.csv"
run "$KPLAN" import --skip-invalid "$T/over.db" "$T/over.csv"
is "$rc,$(q "$T/over.db" "SELECT group_concat(p.name || ':' || pc.template) FROM pod p JOIN pod_resource_claim pc ON pc.pod_id = p.id")" \
	"0,p2:gpu-whole-1" "gpu_milli 1200 skipped with --skip-invalid; the next pod imported"
like "$err" "over.csv:2:5: Pod openb/p1: column 'gpu_milli': 1200 milli of one GPU (at most 1000)" "... and reported"
# into a database that holds a cluster already: refused whole, the database as it was
printf 'sn,cpu_milli,memory_mib,gpu,model\nn1,8000,16384,2,T4\n' >"$T/n1.csv"
"$KPLAN" import -q "$T/keep.db" "$T/n1.csv" || fail "import n1"
before=$(digest "$T/keep.db")
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli\nok1,1,1,1,500\np1,1,1,2,500\n' >"$T/mixed.csv"
run "$KPLAN" import "$T/keep.db" "$T/mixed.csv"
is "$rc,$(digest "$T/keep.db")" "1,$before" "a refused openb row into an existing database: exit 1, the database unchanged (not even the row before it)"
like "$err" "mixed.csv:3:5: Pod openb/p1: column 'gpu_milli'" "... with its file, line and column"

done_testing
