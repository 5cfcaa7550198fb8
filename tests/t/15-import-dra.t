#!/usr/bin/env bash
# 15-import-dra.t — Dynamic Resource Allocation objects (issue 17: imported,
# not planned yet): DeviceClass, ResourceSlice, ResourceClaim and
# ResourceClaimTemplate in resource.k8s.io/v1, v1beta2 and v1beta1 (converted
# as the API server converts v1beta1), their rows checked by SQL; attribute
# and capacity names qualified by the driver; CEL selectors stored with where
# their text starts in the file (the view dra_cel); pods' resourceClaims and
# containers' resources.claims (pod_resource_claim), claims generated from
# templates with deterministic names, as the resourceclaim controller names
# them, for pods read and pods generated from workloads; re-import replacing
# objects; a database made before the DRA tables; bad input refused with
# FILE:LINE:COL and the database unchanged; the realworld2 corpus's DRA files.
#
# Expected values were worked out from the inputs by hand (80Gi = 85899345920,
# 16Gi = 17179869184); the generated claim names are kplan's deterministic
# ones (kp_claim_name), checked for their shape and stability.
. "$(dirname "$0")/../lib.sh"

# q with JSON and commas as they are (q prints CSV, which quotes them)
ql() { q "$1" "$2" | sed 's/^"//; s/"$//; s/""/"/g'; }

cat >"$T/dra.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel:
      expression: device.driver == 'gpu.example.com'
  - cel:
      expression: |
        device.attributes['gpu.example.com'].model.startsWith('A') &&
        device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0
  config:
  - opaque:
      driver: gpu.example.com
      parameters: {kind: GpuConfig, sharing: {strategy: TimeSlicing}}
  extendedResourceName: example.com/gpu
---
apiVersion: resource.k8s.io/v1beta1
kind: DeviceClass
metadata: {name: nic.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == \"nic.example.com\""}
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceClass
metadata: {name: any}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: n1, generation: 2, resourceSliceCount: 1}
  nodeName: n1
  devices:
  - name: gpu-0
    attributes:
      model: {string: A100}
      index: {int: 0}
      mig: {bool: true}
      driverVersion: {version: 1.2.3-rc.1+b5}
      other.example.com/numa: {int: 1}
    capacity:
      memory: {value: 80Gi}
      gpu.example.com/sm: {value: "108"}
    taints:
    - {key: gpu.example.com/unhealthy, value: "true", effect: NoSchedule, timeAdded: "2025-01-01T00:00:00Z"}
    - {key: maintenance, effect: Someday}
  - name: gpu-1
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-counters}
spec:
  driver: gpu.example.com
  pool: {name: n1, generation: 2, resourceSliceCount: 2}
  nodeName: n1
  sharedCounters:
  - name: gpu-0-set
    counters:
      memory: {value: 80Gi}
      sm: {value: "108"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: parts}
spec:
  driver: gpu.example.com
  pool: {name: parts, resourceSliceCount: 1}
  perDeviceNodeSelection: true
  devices:
  - name: half-0
    nodeName: n1
    consumesCounters:
    - counterSet: gpu-0-set
      counters: {memory: {value: 40Gi}, sm: {value: "54"}}
  - name: shared
    allNodes: true
    allowMultipleAllocations: true
    capacity:
      memory:
        value: 80Gi
        requestPolicy:
          default: 1Gi
          validRange: {min: 1Gi, max: 64Gi, step: 1Gi}
      slots:
        value: "8"
        requestPolicy: {default: "2", validValues: ["1", "2", "4"]}
  - name: zoned
    nodeSelector:
      nodeSelectorTerms:
      - matchExpressions: [{key: zone, operator: In, values: [a]}]
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: nic-b1}
spec:
  driver: nic.example.com
  pool: {name: rack-1, generation: 0, resourceSliceCount: 1}
  nodeSelector:
    nodeSelectorTerms:
    - matchExpressions: [{key: rack, operator: In, values: ["1"]}]
  devices:
  - name: eth0
    basic:
      attributes:
        rdma: {bool: true}
        dra.net/pcieRoot: {string: pci0000:00}
      capacity:
        bandwidth: {value: 100G}
  - name: eth1
---
apiVersion: resource.k8s.io/v1beta2
kind: ResourceSlice
metadata: {name: net-all}
spec:
  driver: nic.example.com
  pool: {name: global, generation: 5, resourceSliceCount: 1}
  allNodes: true
  devices:
  - name: vnet-0
    attributes: {kind: {string: virtual}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: train
  namespace: ml
  uid: 11111111-2222-3333-4444-555555555555
  deletionTimestamp: "2025-01-01T00:00:00Z"
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.example.com
        count: 2
        selectors:
        - cel: {expression: "device.attributes['gpu.example.com'].mig"}
        tolerations:
        - {key: gpu.example.com/unhealthy, operator: Exists, effect: NoSchedule}
        - {key: maintenance, value: later, tolerationSeconds: 60}
        capacity:
          requests: {memory: 16Gi, other.example.com/bw: 1G}
    - name: nic
      firstAvailable:
      - name: fast
        deviceClassName: nic.example.com
        allocationMode: All
        selectors:
        - cel: {expression: "device.attributes['nic.example.com'].rdma"}
      - name: slow
        deviceClassName: nic.example.com
    constraints:
    - requests: [gpus, nic/fast]
      matchAttribute: dra.net/pcieRoot
    - distinctAttribute: gpu.example.com/index
    config:
    - requests: [gpus]
      opaque: {driver: gpu.example.com, parameters: {mode: exclusive}}
status:
  allocation:
    devices:
      results:
      - {request: gpus, driver: gpu.example.com, pool: n1, device: gpu-0}
      - request: gpus
        driver: gpu.example.com
        pool: parts
        device: shared
        shareID: aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee
        consumedCapacity: {memory: 16Gi, other.example.com/bw: 1G}
        tolerations: [{key: maintenance, operator: Exists}]
      - {request: nic/fast, driver: nic.example.com, pool: rack-1, device: eth0, adminAccess: false}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [n1]}]
  reservedFor:
  - {resource: pods, name: trainer, uid: 99999999-2222-3333-4444-555555555555}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: monitor, namespace: ml}
spec:
  devices:
    requests:
    - name: all-gpus
      deviceClassName: gpu.example.com
      allocationMode: All
      adminAccess: true
      tolerations: [{operator: Exists}]
    - name: one
      firstAvailable:
      - {name: a, deviceClassName: gpu.example.com, count: 3}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: ml}
spec:
  metadata: {labels: {app: x}}
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - {name: gpus, deviceClassName: gpu.example.com, count: 2}
YAML

cat >"$T/pods.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: ml, uid: 99999999-2222-3333-4444-555555555555}
spec:
  nodeName: n1
  containers:
  - name: main
    image: x
    resources:
      claims: [{name: data, request: gpus}, {name: data, request: nic}]
  - name: side
    image: x
    resources: {claims: [{name: scratch}]}
  resourceClaims:
  - {name: data, resourceClaimName: train}
  - {name: scratch, resourceClaimTemplateName: one-gpu}
status:
  phase: Running
  resourceClaimStatuses:
  - {name: scratch, resourceClaimName: trainer-scratch-abcde}
---
apiVersion: v1
kind: Pod
metadata: {name: eval, namespace: ml}
spec:
  containers: [{name: c, image: x}]
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: one-gpu}
  - {name: extra, resourceClaimTemplateName: two-gpus}
  - {name: none, resourceClaimTemplateName: one-gpu}
  - {name: missing, resourceClaimTemplateName: not-imported}
status:
  resourceClaimStatuses:
  - {name: none}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: ml}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: a-pod-with-a-rather-long-name-for-a-test-of-names, namespace: ml}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: accelerator-claim-name, resourceClaimTemplateName: one-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: owner, namespace: ml}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: owner-gpu-live1
  namespace: ml
  annotations: {resource.kubernetes.io/pod-claim-name: gpu}
  ownerReferences: [{apiVersion: v1, kind: Pod, name: owner, uid: u-1, controller: true}]
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: infer, namespace: ml}
spec:
  replicas: 2
  selector: {matchLabels: {app: infer}}
  template:
    metadata: {labels: {app: infer}}
    spec:
      containers:
      - {name: c, image: x, resources: {claims: [{name: gpu}]}}
      resourceClaims:
      - {name: gpu, resourceClaimTemplateName: one-gpu}
      - {name: shared, resourceClaimName: train}
YAML

db=$T/a.db
run "$KPLAN" import "$db" "$T/dra.yaml" "$T/pods.yaml"
is "$rc" 0 "import exits 0${err:+ ($err)}"
like "$out" "5 pods, 1 workload, 2 pending pods generated from workloads, 3 device classes, 5 resource slices, 3 resource claims, 5 resource claims generated, 2 resource claim templates;" \
	"the summary names the DRA counts"
is "$(q "$db" "SELECT json_extract(counts, '\$.device_classes') || ' ' || json_extract(counts, '\$.resource_slices') || ' ' ||
	json_extract(counts, '\$.resource_claims') || ' ' || json_extract(counts, '\$.generated_resource_claims') || ' ' ||
	json_extract(counts, '\$.resource_claim_templates') FROM import_batch")" "3 5 3 5 2" "import_batch.counts holds them"
is "$(q "$db" "SELECT json_extract(counts, '\$.skipped_api') FROM import_batch")" "{}" "no DRA kind is skipped"

# ---- DeviceClass ----
is "$(ql "$db" "SELECT group_concat(name || '|' || COALESCE(extended_resource_name, 'NULL') || '|' || api_version || '|' || line, ' ') FROM (SELECT * FROM device_class ORDER BY id)")" \
	"gpu.example.com|example.com/gpu|resource.k8s.io/v1|1 nic.example.com|NULL|resource.k8s.io/v1beta1|18 any|NULL|resource.k8s.io/v1beta2|25" \
	"DeviceClass v1, v1beta1, v1beta2: name, extendedResourceName, apiVersion, line"
is "$(ql "$db" "SELECT config FROM device_class WHERE name = 'gpu.example.com'")" \
	'[{"opaque":{"driver":"gpu.example.com","parameters":{"kind":"GpuConfig","sharing":{"strategy":"TimeSlicing"}}}}]' \
	"DeviceClass config kept as JSON"
is "$(ql "$db" "SELECT group_concat(c.name || ':' || s.seq || ':' || s.expr_line || ':' || s.expr_col || ':' || s.expr_block, ' ') FROM (SELECT * FROM device_class_selector ORDER BY class_id, seq) s JOIN device_class c ON c.id = s.class_id")" \
	"gpu.example.com:0:7:19:0 gpu.example.com:1:10:9:1 nic.example.com:0:23:24:0" \
	"selectors in order, where their text starts: plain, a literal block (its next line), past a quote"
is "$(q "$db" "SELECT expression FROM device_class_selector WHERE seq = 0 AND class_id = 1")" "device.driver == 'gpu.example.com'" \
	"a selector's expression as written, not evaluated"
is "$(q "$db" "SELECT expression = 'device.attributes[''gpu.example.com''].model.startsWith(''A'') &&' || char(10) ||
	'device.capacity[''gpu.example.com''].memory.compareTo(quantity(''40Gi'')) >= 0' || char(10) FROM device_class_selector WHERE seq = 1")" 1 \
	"a literal block selector: its lines, without their indentation"
is "$(ql "$db" "SELECT expression FROM device_class_selector WHERE class_id = 2")" 'device.driver == "nic.example.com"' \
	"a double-quoted selector, unescaped"
# each position is where the expression's text is in the file
while IFS='|' read -r line col; do
	got=$(sed -n "${line}p" "$T/dra.yaml" | cut -c"$col"-)
	case "$got" in device.*) pass "dra_cel: line $line, column $col starts the expression" ;;
	*) fail "dra_cel: line $line, column $col starts the expression (got '$got')" ;; esac
done < <(sqlite3 "$db" "SELECT line, col FROM dra_cel WHERE file = '$T/dra.yaml' ORDER BY line")
is "$(q "$db" "SELECT count(*) FROM dra_cel")" 5 "dra_cel: 3 class selectors and 2 request selectors"

# ---- ResourceSlice ----
is "$(ql "$db" "SELECT group_concat(name || '|' || driver || '|' || pool || '|' || pool_generation || '|' || pool_slice_count || '|' ||
	COALESCE(node_name, '') || '|' || COALESCE(node_selector, '') || '|' || all_nodes || '|' || per_device_node_selection || '|' || api_version, ' ') FROM (SELECT * FROM resource_slice ORDER BY id)")" \
	'n1-gpu|gpu.example.com|n1|2|1|n1||0|0|resource.k8s.io/v1 n1-counters|gpu.example.com|n1|2|2|n1||0|0|resource.k8s.io/v1 parts|gpu.example.com|parts|0|1|||0|1|resource.k8s.io/v1 nic-b1|nic.example.com|rack-1|0|1||[{"matchExpressions":[["rack","In",["1"]]]}]|0|0|resource.k8s.io/v1beta1 net-all|nic.example.com|global|5|1|||1|0|resource.k8s.io/v1beta2' \
	"slices: driver, pool (generation, count), node selection (nodeName, nodeSelector as JSON terms, allNodes, perDeviceNodeSelection)"
is "$(q "$db" "SELECT group_concat(counter_set || '/' || counter || '=' || value || '(' || quantity || ')', ' ') FROM (SELECT * FROM slice_counter ORDER BY counter)")" \
	"gpu-0-set/memory=85899345920(80Gi) gpu-0-set/sm=108(108)" "sharedCounters: one row per counter"
is "$(ql "$db" "SELECT group_concat(s.name || '/' || d.name || ':' || d.seq || ':' || d.allow_multiple_allocations || ':' || COALESCE(d.node_name, '') || ':' ||
	COALESCE(d.node_selector, '') || ':' || d.all_nodes, ' ') FROM (SELECT * FROM slice_device ORDER BY id) d JOIN resource_slice s ON s.id = d.slice_id")" \
	'n1-gpu/gpu-0:0:0:::0 n1-gpu/gpu-1:1:0:::0 parts/half-0:0:0:n1::0 parts/shared:1:1:::1 parts/zoned:2:0::[{"matchExpressions":[["zone","In",["a"]]]}]:0 nic-b1/eth0:0:0:::0 nic-b1/eth1:1:0:::0 net-all/vnet-0:0:0:::0' \
	"devices in slice order; per-device node selection; allowMultipleAllocations; v1beta1 devices with and without basic"
is "$(q "$db" "SELECT group_concat(domain || '/' || name || ':' || type || '=' || value || ':' || typeof(value), ' ') FROM (SELECT * FROM device_attribute WHERE device_id = 1 ORDER BY domain, name)")" \
	"gpu.example.com/driverVersion:version=1.2.3-rc.1+b5:text gpu.example.com/index:int=0:integer gpu.example.com/mig:bool=1:integer gpu.example.com/model:string=A100:text other.example.com/numa:int=1:integer" \
	"attributes: a name without a domain in the driver's, domain and name apart; int, bool, string, version"
is "$(q "$db" "SELECT group_concat(a.domain || '/' || a.name || '=' || a.value, ' ') FROM (SELECT * FROM device_attribute ORDER BY domain) a JOIN slice_device d ON d.id = a.device_id WHERE d.name = 'eth0'")" \
	"dra.net/pcieRoot=pci0000:00 nic.example.com/rdma=1" "v1beta1: the basic attributes are the device's"
is "$(q "$db" "SELECT group_concat(d.name || ':' || c.domain || '/' || c.name || '=' || c.value || '(' || c.quantity || ')', ' ') FROM (SELECT * FROM device_capacity ORDER BY device_id, name) c JOIN slice_device d ON d.id = c.device_id WHERE c.policy_default IS NULL")" \
	"gpu-0:gpu.example.com/memory=85899345920(80Gi) gpu-0:gpu.example.com/sm=108(108) eth0:nic.example.com/bandwidth=100000000000(100G)" \
	"capacity in base units with the quantity as written; v1beta1's from basic"
is "$(ql "$db" "SELECT group_concat(name || ':' || policy_default || ':' || COALESCE(policy_min, '-') || ':' || COALESCE(policy_max, '-') || ':' ||
	COALESCE(policy_step, '-') || ':' || COALESCE(policy_valid_values, '-'), ' ') FROM (SELECT * FROM device_capacity WHERE device_id = 4 ORDER BY name)")" \
	"memory:1073741824:1073741824:68719476736:1073741824:- slots:2:-:-:-:[1,2,4]" \
	"requestPolicy: default with validRange (min, max, step) or validValues"
is "$(q "$db" "SELECT group_concat(counter_set || '/' || counter || '=' || value, ' ') FROM (SELECT * FROM device_counter ORDER BY counter)")" \
	"gpu-0-set/memory=42949672960 gpu-0-set/sm=54" "consumesCounters: one row per counter"
is "$(q "$db" "SELECT group_concat(seq || ':' || key || ':' || value || ':' || effect || ':' || COALESCE(time_added, '-'), ' ') FROM (SELECT * FROM device_taint ORDER BY seq)")" \
	"0:gpu.example.com/unhealthy:true:NoSchedule:1735689600 1:maintenance::Someday:-" \
	"taints in order; an effect kplan does not know kept as written (kube: treat it like None)"

# ---- ResourceClaim ----
is "$(ql "$db" "SELECT group_concat(request || '/' || subrequest || ':' || seq || ':' || sub_seq || ':' || first_available || ':' ||
	COALESCE(device_class, '-') || ':' || COALESCE(allocation_mode, '-') || ':' || COALESCE(count, '-') || ':' || admin_access, ' ')
	FROM (SELECT r.* FROM claim_request r JOIN resource_claim c ON c.spec_id = r.spec_id WHERE c.name = 'train' ORDER BY r.seq, r.sub_seq)")" \
	"gpus/:0:0:0:gpu.example.com:ExactCount:2:0 nic/:1:0:1:-:-:-:0 nic/fast:1:1:0:nic.example.com:All:0:0 nic/slow:1:2:0:nic.example.com:ExactCount:1:0" \
	"v1 requests: exactly (count), firstAvailable with its subrequests in order (All; ExactCount and count 1 by default)"
is "$(ql "$db" "SELECT group_concat(r.request || '/' || r.subrequest || ':' || r.path || ':' || r.expr_line || ':' || r.expr_col, ' ')
	FROM claim_request_selector r JOIN resource_claim c ON c.spec_id = r.spec_id WHERE c.name = 'train'")" \
	"gpus/:spec.devices.requests[0].exactly.selectors[0].cel.expression:140:30 nic/fast:spec.devices.requests[1].firstAvailable[0].selectors[0].cel.expression:152:30" \
	"request selectors: path as written and position"
is "$(q "$db" "SELECT group_concat(t.seq || ':[' || t.key || ']:' || t.operator || ':[' || t.value || ']:[' || t.effect || ']:' || COALESCE(t.toleration_seconds, '-'), ' ')
	FROM claim_request_toleration t JOIN resource_claim c ON c.spec_id = t.spec_id WHERE c.name = 'train'")" \
	"0:[gpu.example.com/unhealthy]:Exists:[]:[NoSchedule]:- 1:[maintenance]:Equal:[later]:[]:60" \
	"request tolerations: operator Equal by default, seconds"
is "$(q "$db" "SELECT group_concat(k.name || '=' || k.value || '(' || k.quantity || ')', ' ') FROM (SELECT * FROM claim_request_capacity ORDER BY name) k JOIN resource_claim c ON c.spec_id = k.spec_id WHERE c.name = 'train'")" \
	"memory=17179869184(16Gi) other.example.com/bw=1000000000(1G)" "capacity.requests: names as written (a bare one is the device's driver's)"
is "$(ql "$db" "SELECT group_concat(k.seq || ':' || COALESCE(k.requests, 'all') || ':' || COALESCE(k.match_attribute, '-') || ':' || COALESCE(k.distinct_attribute, '-'), ' ')
	FROM claim_constraint k JOIN resource_claim c ON c.spec_id = k.spec_id WHERE c.name = 'train'")" \
	'0:["gpus","nic/fast"]:dra.net/pcieRoot:- 1:all:-:gpu.example.com/index' "constraints: requests (none: all), matchAttribute, distinctAttribute"
is "$(ql "$db" "SELECT p.config FROM claim_spec p JOIN resource_claim c ON c.spec_id = p.id WHERE c.name = 'train'")" \
	'[{"requests":["gpus"],"opaque":{"driver":"gpu.example.com","parameters":{"mode":"exclusive"}}}]' "claim config kept as JSON"
is "$(ql "$db" "SELECT uid || '|' || deleting || '|' || allocated || '|' || allocation_node_selector || '|' || generated FROM resource_claim WHERE name = 'train'")" \
	'11111111-2222-3333-4444-555555555555|1|1|[{"matchExpressions":[],"matchFields":[["metadata.name","In",["n1"]]]}]|0' \
	"claim: uid, deletionTimestamp, allocated with its node selector"
is "$(ql "$db" "SELECT group_concat(seq || ':' || request || ':' || driver || '/' || pool || '/' || device || ':' || admin_access || ':' || COALESCE(share_id, '-') || ':' || COALESCE(tolerations, '-'), ' ')
	FROM resource_claim_result WHERE claim_id = (SELECT id FROM resource_claim WHERE name = 'train')")" \
	'0:gpus:gpu.example.com/n1/gpu-0:0:-:- 1:gpus:gpu.example.com/parts/shared:0:aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee:[{"key":"maintenance","operator":"Exists"}] 2:nic/fast:nic.example.com/rack-1/eth0:0:-:-' \
	"allocation results: request (or request/subrequest), device, shareID, tolerations"
is "$(q "$db" "SELECT group_concat(seq || ':' || domain || '/' || name || '=' || value, ' ') FROM (SELECT * FROM resource_claim_consumed ORDER BY domain)")" \
	"1:gpu.example.com/memory=17179869184 1:other.example.com/bw=1000000000" "consumedCapacity qualified by the result's driver"
is "$(q "$db" "SELECT '[' || api_group || ']' || resource || '/' || name || '/' || uid FROM resource_claim_reserved")" \
	"[]pods/trainer/99999999-2222-3333-4444-555555555555" "reservedFor"
# v1beta1: the request's fields are its `exactly`
is "$(q "$db" "SELECT group_concat(request || '/' || subrequest || ':' || first_available || ':' || COALESCE(device_class, '-') || ':' || COALESCE(allocation_mode, '-') || ':' ||
	COALESCE(count, '-') || ':' || admin_access, ' ') FROM (SELECT r.* FROM claim_request r JOIN resource_claim c ON c.spec_id = r.spec_id WHERE c.name = 'monitor' ORDER BY r.seq, r.sub_seq)")" \
	"all-gpus/:0:gpu.example.com:All:0:1 one/:1:-:-:-:0 one/a:0:gpu.example.com:ExactCount:3:0" \
	"v1beta1 claim: deviceClassName, allocationMode, adminAccess in the request become its exactly; firstAvailable as in v1"
is "$(q "$db" "SELECT t.key || ':' || t.operator || ':' || t.effect FROM claim_request_toleration t JOIN resource_claim c ON c.spec_id = t.spec_id WHERE c.name = 'monitor'")" \
	":Exists:" "v1beta1 claim: its tolerations too"
is "$(q "$db" "SELECT api_version || '|' || allocated || '|' || COALESCE(allocation_node_selector, 'NULL') FROM resource_claim WHERE name = 'monitor'")" \
	"resource.k8s.io/v1beta1|0|NULL" "an unallocated claim"

# ---- ResourceClaimTemplate and generated claims ----
is "$(q "$db" "SELECT group_concat(t.name || ':' || t.api_version || ':' || r.device_class || ':' || r.count, ' ') FROM (SELECT * FROM resource_claim_template ORDER BY name) t JOIN claim_request r ON r.spec_id = t.spec_id")" \
	"one-gpu:resource.k8s.io/v1:gpu.example.com:1 two-gpus:resource.k8s.io/v1beta1:gpu.example.com:2" \
	"templates: their claim spec (spec.spec), v1 and v1beta1"
is "$(q "$db" "SELECT group_concat(p.name || ':' || c.name || ':' || c.seq || ':' || COALESCE(c.claim_name, '-') || ':' || COALESCE(c.template, '-') || ':' || c.claim_from, ' ')
	FROM (SELECT * FROM pod_resource_claim ORDER BY pod_id, seq) c JOIN pod p ON p.id = c.pod_id WHERE p.workload_id IS NULL")" \
	"trainer:data:0:train:-:spec trainer:scratch:1:-:one-gpu:status eval:gpu:0:-:one-gpu:generated eval:extra:1:-:two-gpus:generated eval:none:2:-:one-gpu:none eval:missing:3:-:not-imported:generated done:gpu:0:-:one-gpu:generated a-pod-with-a-rather-long-name-for-a-test-of-names:accelerator-claim-name:0:-:one-gpu:generated owner:gpu:0:-:one-gpu:owned" \
	"pod_resource_claim: a claim by name, by template (status, none needed, generated, owned)"
is "$(q "$db" "SELECT group_concat(COALESCE(claim, 'NULL'), ' ') FROM (SELECT c.claim FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.name IN ('trainer', 'eval', 'owner') ORDER BY c.pod_id, c.seq)")" \
	"train trainer-scratch-abcde eval-gpu-lt6ln eval-extra-672l9 NULL eval-missing-p7j2h owner-gpu-live1" \
	"the claim used: spec, status, generated <pod>-<claim>-<5>, none, the imported claim the pod owns with that claim name"
is "$(ql "$db" "SELECT group_concat(c.name || '=' || c.containers, ' ') FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.name = 'trainer'")" \
	'data=[{"container":"main","request":"gpus"},{"container":"main","request":"nic"}] scratch=[{"container":"side","request":null}]' \
	"containers' resources.claims, per pod claim"
long=a-pod-with-a-rather-long-name-for-a-test-of-names
lc=accelerator-claim-name
base=$(( ${#long} + ${#lc} + 2 ))
prefix="${long:0:$(( ${#long} * 57 / base ))}-${lc:0:$(( ${#lc} * 57 / base ))}"
gen=$(q "$db" "SELECT claim FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.name = '$long'")
is "${gen%?????}" "$prefix" "a long pod and claim name: both cut in proportion to 57 characters, as the controller cuts them"
case "${gen: -5}" in *[!bcdfghjklmnpqrstvwxz2456789]*) fail "the suffix is 5 of the controllers' characters (${gen: -5})" ;;
*) pass "the suffix is 5 of the controllers' characters" ;; esac
is "$(q "$db" "SELECT group_concat(c.name || ':' || c.template || ':' || c.pod_claim || ':' || c.owner_kind || '/' || c.owner_name || ':' || (c.spec_id = t.spec_id) || ':' || c.batch_id, ' ')
	FROM (SELECT * FROM resource_claim WHERE generated = 1 ORDER BY name) c JOIN resource_claim_template t ON t.name = c.template AND t.namespace = c.namespace")" \
	"$gen:one-gpu:accelerator-claim-name:Pod/$long:1:1 eval-extra-672l9:two-gpus:extra:Pod/eval:1:1 eval-gpu-lt6ln:one-gpu:gpu:Pod/eval:1:1 $(q "$db" "SELECT group_concat(x, ' ') FROM (SELECT c.claim || ':one-gpu:gpu:Pod/' || p.name || ':1:1' AS x FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.workload_id IS NOT NULL AND c.name = 'gpu' ORDER BY c.claim)")" \
	"generated claims: owner Pod, the pod's claim name, the template's spec shared, this batch"
is "$(q "$db" "SELECT count(*) FROM resource_claim WHERE generated = 1 AND (name LIKE 'done-%' OR name LIKE 'eval-missing-%' OR name LIKE 'trainer-%' OR name LIKE 'owner-%')")" 0 \
	"none generated for a pod that succeeded, a template not imported, a claim the status names, a claim the pod owns"
# a workload's pods: their template's claims, a template's claim named per pod
is "$(q "$db" "SELECT group_concat(name || ':' || seq || ':' || COALESCE(claim_name, '-') || ':' || COALESCE(template, '-'), ' ') FROM workload_resource_claim")" \
	"gpu:0:-:one-gpu shared:1:train:-" "workload_resource_claim: the template's resourceClaims"
is "$(q "$db" "SELECT count(*) || ' ' || count(DISTINCT c.claim) || ' ' || sum(c.claim LIKE p.name || '-gpu-_____') FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.workload_id IS NOT NULL AND c.name = 'gpu'")" \
	"2 2 2" "generated pods: a claim each, named <pod>-gpu-<5>"
is "$(q "$db" "SELECT group_concat(DISTINCT c.claim || ':' || c.claim_from) FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.workload_id IS NOT NULL AND c.name = 'shared'")" \
	"train:spec" "generated pods: a claim by name is shared"
# classes: pods with claims never share one with pods without
is "$(q "$db" "SELECT count(*) FROM pod_class WHERE spec LIKE '%\"resourceClaims\":%'")" \
	"$(q "$db" "SELECT count(DISTINCT class_id) FROM pod WHERE id IN (SELECT pod_id FROM pod_resource_claim)")" "the class spec counts the claims"

# the same input into another database: the same names
run "$KPLAN" import -q "$T/b.db" "$T/dra.yaml" "$T/pods.yaml"
is "$(q "$T/b.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM resource_claim ORDER BY name)")" \
	"$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM resource_claim ORDER BY name)")" "generated names are deterministic"

# the plan runs with them (the planner does not read DRA yet)
cp "$db" "$T/plan.db"
run "$KPLAN" plan -q "$T/plan.db"
is "$rc" 0 "plan on a database with DRA objects: exit 0${err:+ ($err)}"

# ---- re-import: objects replaced, generated claims made again ----
cat >"$T/again.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: n1, generation: 3, resourceSliceCount: 1}
  nodeName: n1
  devices:
  - name: gpu-9
    attributes: {model: {string: H100}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: train, namespace: ml}
spec:
  devices:
    requests: [{name: one, exactly: {deviceClassName: gpu.example.com}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: ml}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 4}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: infer, namespace: ml}
spec:
  replicas: 1
  selector: {matchLabels: {app: infer}}
  template:
    metadata: {labels: {app: infer}}
    spec:
      containers:
      - {name: c, image: x, resources: {claims: [{name: gpu}]}}
      resourceClaims:
      - {name: gpu, resourceClaimTemplateName: one-gpu}
      - {name: shared, resourceClaimName: train}
YAML
cp "$db" "$T/re.db"
kept=$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM resource_claim WHERE generated = 1 AND owner_name NOT LIKE 'infer-%' ORDER BY name)")
run "$KPLAN" import "$T/re.db" "$T/again.yaml"
is "$rc" 0 "re-import: exit 0${err:+ ($err)}"
like "$out" "1 workload, 1 resource slice, 1 resource claim, 1 resource claim template;" "re-import: counted"
unlike "$out" "generated" "re-import: no pod or claim generated anew"
is "$(q "$T/re.db" "SELECT group_concat(d.name || ':' || a.value, ' ') FROM slice_device d JOIN resource_slice s ON s.id = d.slice_id
	LEFT JOIN device_attribute a ON a.device_id = d.id WHERE s.name = 'n1-gpu'") $(q "$T/re.db" "SELECT pool_generation || ':' || batch_id FROM resource_slice WHERE name = 'n1-gpu'")" \
	"gpu-9:H100 3:2" "a slice read again: its devices replaced, its generation and batch"
is "$(q "$T/re.db" "SELECT (SELECT count(*) FROM device_taint) || ' ' || (SELECT count(*) FROM device_capacity WHERE device_id NOT IN (SELECT id FROM slice_device))
	|| ' ' || (SELECT count(*) FROM device_attribute WHERE device_id NOT IN (SELECT id FROM slice_device))")" "0 0 0" \
	"the old devices' taints, capacity and attributes are gone"
is "$(q "$T/re.db" "SELECT group_concat(r.request || ':' || r.count, ' ') || '|' || c.allocated || '|' || (SELECT count(*) FROM resource_claim_result WHERE claim_id = c.id)
	|| '|' || (SELECT count(*) FROM resource_claim_reserved WHERE claim_id = c.id) FROM resource_claim c JOIN claim_request r ON r.spec_id = c.spec_id WHERE c.name = 'train'")" \
	"one:1|0|0|0" "a claim read again: its spec and status replaced"
is "$(q "$T/re.db" "SELECT count(*) FROM claim_spec WHERE id NOT IN (SELECT spec_id FROM resource_claim UNION SELECT spec_id FROM resource_claim_template)") $(q "$T/re.db" "SELECT count(*) FROM claim_request WHERE spec_id NOT IN (SELECT id FROM claim_spec)")" \
	"0 0" "the specs replaced are gone, with their requests"
is "$(q "$T/re.db" "SELECT group_concat(DISTINCT r.count) FROM resource_claim c JOIN claim_request r ON r.spec_id = c.spec_id WHERE c.generated = 1 AND c.template = 'one-gpu'")" "4" \
	"generated claims take their template's new spec"
is "$(q "$T/re.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM resource_claim WHERE generated = 1 AND owner_name NOT LIKE 'infer-%' ORDER BY name)")" "$kept" \
	"generated claims keep their names"
is "$(q "$T/re.db" "SELECT count(*) || ' ' || sum(c.claim IN (SELECT name FROM resource_claim)) FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.workload_id IS NOT NULL")" "2 2" \
	"1 replica: 1 generated pod, its 2 claims"
is "$(q "$T/re.db" "SELECT count(*) FROM resource_claim WHERE generated = 1 AND owner_name LIKE 'infer-%'")" 1 \
	"the claim of the pod no longer wanted is gone"
is "$(q "$T/re.db" "SELECT count(*) FROM pod_resource_claim WHERE pod_id NOT IN (SELECT id FROM pod)")" 0 "no claims of pods that are gone"
# a pod read again with its claim now by name: its generated claim goes
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: eval, namespace: ml}\nspec:\n  containers: [{name: c, image: x}]\n  resourceClaims: [{name: gpu, resourceClaimName: train}]\n' >"$T/eval.yaml"
run "$KPLAN" import -q "$T/re.db" "$T/eval.yaml"
is "$(q "$T/re.db" "SELECT group_concat(c.name || ':' || c.claim || ':' || c.claim_from) FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id WHERE p.name = 'eval'") $(q "$T/re.db" "SELECT count(*) FROM resource_claim WHERE owner_name = 'eval'")" \
	"gpu:train:spec 0" "a pod read again: its claims replaced, the claims generated for it gone"
# the same object twice in one import
printf 'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: x}\n---\napiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: x}\n' >"$T/twice.yaml"
run "$KPLAN" import "$T/re.db" "$T/twice.yaml"
is "$rc" 1 "the same DeviceClass twice in one import: exit 1"
like "$err" "$T/twice.yaml:5:1: DeviceClass x: duplicate object in one import: also defined at $T/twice.yaml:1" "the duplicate is named"

# ---- a database made before the DRA tables gets them on import ----
old=$T/old.db
run "$KPLAN" init "$old"
run "$KPLAN" query --write "$old" "DROP VIEW dra_cel; DROP TABLE device_class; DROP TABLE device_class_selector; DROP TABLE resource_slice;
	DROP TABLE slice_counter; DROP TABLE slice_device; DROP TABLE device_attribute; DROP TABLE device_capacity; DROP TABLE device_counter;
	DROP TABLE device_taint; DROP TABLE claim_spec; DROP TABLE claim_request; DROP TABLE claim_request_selector;
	DROP TABLE claim_request_toleration; DROP TABLE claim_request_capacity; DROP TABLE claim_constraint; DROP TABLE resource_claim;
	DROP TABLE resource_claim_result; DROP TABLE resource_claim_consumed; DROP TABLE resource_claim_reserved;
	DROP TABLE resource_claim_template; DROP TABLE pod_resource_claim; DROP TABLE workload_resource_claim"
is "$rc" 0 "setup: the DRA tables dropped${err:+ ($err)}"
run "$KPLAN" import "$old" "$T/dra.yaml" "$T/pods.yaml"
is "$rc" 0 "a database without the DRA tables: import exits 0${err:+ ($err)}"
is "$(q "$old" "SELECT (SELECT count(*) FROM resource_slice) || ' ' || (SELECT count(*) FROM resource_claim) || ' ' || (SELECT count(*) FROM dra_cel)")" "5 8 5" \
	"the tables and the view are made and filled"

# ---- bad input: FILE:LINE:COL, the object, exit 1, the database unchanged ----
cp "$db" "$T/base.db"
before=$(digest "$T/base.db")
bad() { # bad DESC WANT YAML
	printf '%b' "$3" >"$T/bad.yaml"
	run "$KPLAN" import "$T/base.db" "$T/bad.yaml"
	is "$rc" 1 "$1: exit 1"
	like "$err" "kplan: $T/bad.yaml:$2" "$1: the message"
	like "$err" "nothing was imported" "$1: nothing imported"
	is "$(digest "$T/base.db")" "$before" "$1: database unchanged"
}
CLAIM='apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ml}\nspec:\n  devices:\n    requests:\n'
SLICE='apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n  pool: {name: p, resourceSliceCount: 1}\n'
DEV="${SLICE}  nodeName: n1\n  devices:\n  - name: d0\n"
bad "count not an integer" "8:44: ResourceClaim ml/c: spec.devices.requests[0].exactly.count: expected an integer, got 'two'" \
	"${CLAIM}    - name: r\n      exactly: {deviceClassName: x, count: two}\n"
bad "unknown allocationMode" "8:53: ResourceClaim ml/c: spec.devices.requests[0].exactly.allocationMode: 'Some' is not one of ExactCount, All" \
	"${CLAIM}    - name: r\n      exactly: {deviceClassName: x, allocationMode: Some}\n"
bad "count with allocationMode All" "8:65: ResourceClaim ml/c: spec.devices.requests[0].exactly.count: must not be specified when allocationMode is 'All'" \
	"${CLAIM}    - name: r\n      exactly: {deviceClassName: x, allocationMode: All, count: 2}\n"
bad "negative count" "8:44: ResourceClaim ml/c: spec.devices.requests[0].exactly.count: must be greater than zero" \
	"${CLAIM}    - name: r\n      exactly: {deviceClassName: x, count: -1}\n"
bad "no deviceClassName" "8:16: ResourceClaim ml/c: spec.devices.requests[0].exactly.deviceClassName: required" \
	"${CLAIM}    - name: r\n      exactly: {count: 1}\n"
bad "v1 request in the v1beta1 form" "7:7: ResourceClaim ml/c: spec.devices.requests[0]: exactly one of \`exactly\` or \`firstAvailable\` is required (deviceClassName directly in the request is the v1beta1 form: apiVersion resource.k8s.io/v1beta1)" \
	"${CLAIM}    - name: r\n      deviceClassName: x\n"
bad "exactly and firstAvailable" "7:7: ResourceClaim ml/c: spec.devices.requests[0]: exactly one of \`exactly\` or \`firstAvailable\` is required, but both are set" \
	"${CLAIM}    - name: r\n      exactly: {deviceClassName: x}\n      firstAvailable: [{name: a, deviceClassName: x}]\n"
bad "v1beta1: fields and firstAvailable" "7:7: ResourceClaim ml/c: spec.devices.requests[0]: exactly one of \`exactly\` or \`firstAvailable\` is required, but both are set" \
	"$(printf '%s' "$CLAIM" | sed 's|/v1\\n|/v1beta1\\n|')    - name: r\n      deviceClassName: x\n      firstAvailable: [{name: a, deviceClassName: x}]\n"
bad "a request twice" "8:14: ResourceClaim ml/c: spec.devices.requests[1].name: 'r' twice in the claim" \
	"${CLAIM}    - {name: r, exactly: {deviceClassName: x}}\n    - {name: r, exactly: {deviceClassName: x}}\n"
bad "selector without cel" "7:59: ResourceClaim ml/c: spec.devices.requests[0].exactly.selectors[0].cel: required (the only kind of selector)" \
	"${CLAIM}    - {name: r, exactly: {deviceClassName: x, selectors: [{expr: a}]}}\n"
bad "toleration Exists with a value" "7:87: ResourceClaim ml/c: spec.devices.requests[0].exactly.tolerations[0].value: must be empty for operator Exists" \
	"${CLAIM}    - {name: r, exactly: {deviceClassName: x, tolerations: [{operator: Exists, value: v}]}}\n"
bad "toleration effect PreferNoSchedule" "7:88: ResourceClaim ml/c: spec.devices.requests[0].exactly.tolerations[0].effect: 'PreferNoSchedule' is not one of None, NoSchedule, NoExecute" \
	"${CLAIM}    - {name: r, exactly: {deviceClassName: x, tolerations: [{operator: Exists, effect: PreferNoSchedule}]}}\n"
bad "constraint without a domain" "8:36: ResourceClaim ml/c: spec.devices.constraints[0].matchAttribute: 'numa' must be a domain and a name separated by a slash" \
	"${CLAIM}    - {name: r, exactly: {deviceClassName: x}}\n    constraints: [{matchAttribute: numa}]\n"
bad "constraint naming no request" "8:31: ResourceClaim ml/c: spec.devices.constraints[0].requests[0]: 'q' must be the name of a request in the claim" \
	"${CLAIM}    - {name: r, exactly: {deviceClassName: x}}\n    constraints: [{requests: [q], matchAttribute: a.b/numa}]\n"
bad "config without opaque" "9:7: ResourceClaim ml/c: spec.devices.config[0].opaque: required" \
	"${CLAIM}    - {name: r, exactly: {deviceClassName: x}}\n    config:\n    - {requests: [r]}\n"
bad "reservedFor without allocation" "5:16: ResourceClaim ml/c: status.reservedFor: may not be set when status.allocation is not" \
	'apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ml}\nstatus:\n  reservedFor: [{resource: pods, name: p, uid: u}]\n'
bad "a result naming no request" "5:46: ResourceClaim ml/c: status.allocation.devices.results[0].request: 'x' is not a request of the claim" \
	'apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ml}\nstatus:\n  allocation: {devices: {results: [{request: x, driver: d, pool: p, device: d0}]}}\n'
bad "two node selections" "5:3: ResourceSlice s: spec: exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is required, but several are set (nodeName, allNodes)" \
	"${SLICE}  nodeName: n1\n  allNodes: true\n"
bad "no node selection" "5:3: ResourceSlice s: spec: exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is required" \
	"${SLICE}"
bad "resourceSliceCount missing" "6:9: ResourceSlice s: spec.pool.resourceSliceCount: must be greater than zero" \
	'apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n  pool: {name: p}\n  nodeName: n1\n'
bad "a nodeSelector of two terms" "7:17: ResourceSlice s: spec.nodeSelector.nodeSelectorTerms: must have exactly one term" \
	"${SLICE}  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Exists}]}, {matchExpressions: [{key: b, operator: Exists}]}]}\n"
bad "a node selector operator" "7:77: ResourceSlice s: spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].operator: 'Near' is not one of" \
	"${SLICE}  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Near}]}]}\n"
bad "an attribute of two values" "11:10: ResourceSlice s: spec.devices[0].attributes.a: exactly one of int, bool, string, version must be set, got 2" \
	"${DEV}    attributes:\n      a: {int: 1, string: x}\n"
bad "an int attribute of the wrong type" "11:16: ResourceSlice s: spec.devices[0].attributes.a.int: expected an integer, got 'one'" \
	"${DEV}    attributes:\n      a: {int: one}\n"
bad "a list-type attribute" "11:17: ResourceSlice s: spec.devices[0].attributes.a.ints: list-type attributes (DRAListTypeAttributes, alpha) are not supported by kplan" \
	"${DEV}    attributes:\n      a: {ints: [1]}\n"
bad "an attribute twice, qualified and not" "12:7: ResourceSlice s: spec.devices[0].attributes: 'a' and 'd.example.com/a' are the same attribute d.example.com/a" \
	"${DEV}    attributes:\n      a: {int: 1}\n      d.example.com/a: {int: 2}\n"
bad "an attribute name of two slashes" "11:7: ResourceSlice s: spec.devices[0].attributes.a/b/c: 'a/b/c' must not contain more than one slash" \
	"${DEV}    attributes:\n      a/b/c: {int: 1}\n"
bad "a version that is no semver" "10:31: ResourceSlice s: spec.devices[0].attributes.a.version: 'v1' is not a semantic version (semver.org 2.0.0)" \
	"${DEV}    attributes: {a: {version: v1}}\n"
bad "a bad capacity quantity" "10:27: ResourceSlice s: spec.devices[0].capacity.m.value: invalid quantity 'lots'" \
	"${DEV}    capacity: {m: {value: lots}}\n"
bad "requestPolicy without allowMultipleAllocations" "11:38: ResourceSlice s: spec.devices[0].capacity.m.requestPolicy: only allowed when allowMultipleAllocations is true" \
	"${DEV}    capacity:\n      m: {value: 1Gi, requestPolicy: {default: 1Gi}}\n"
bad "requestPolicy default outside validValues" "12:46: ResourceSlice s: spec.devices[0].capacity.m.requestPolicy.default: not one of validValues" \
	"${DEV}    allowMultipleAllocations: true\n    capacity:\n      m: {value: 8, requestPolicy: {default: 3, validValues: [1, 2, 4]}}\n"
bad "a taint without effect" "10:14: ResourceSlice s: spec.devices[0].taints[0].effect: required" \
	"${DEV}    taints: [{key: k}]\n"
bad "a device's nodeName without perDeviceNodeSelection" "9:5: ResourceSlice s: spec.devices[0]: nodeName, nodeSelector and allNodes can only be set if perDeviceNodeSelection is true" \
	"${DEV}    nodeName: n2\n"
bad "perDeviceNodeSelection, a device without" "9:5: ResourceSlice s: spec.devices[0]: exactly one of nodeName, nodeSelector, or allNodes is required when perDeviceNodeSelection is set to true" \
	"${SLICE}  perDeviceNodeSelection: true\n  devices:\n  - name: d0\n"
bad "a device twice" "10:12: ResourceSlice s: spec.devices[1].name: 'd0' twice in the slice" \
	"${DEV}  - {name: d0}\n"
bad "sharedCounters and devices" "10:19: ResourceSlice s: spec: only one of sharedCounters or devices is allowed" \
	"${DEV}  sharedCounters: [{name: c, counters: {a: {value: 1}}}]\n"
bad "a counter set without counters" "9:5: ResourceSlice s: spec.sharedCounters[0].counters: required" \
	"${SLICE}  nodeName: n1\n  sharedCounters:\n  - name: c\n"
bad "DeviceClass selector without cel" "5:15: DeviceClass c: spec.selectors[0].cel: required" \
	'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec:\n  selectors: [{expression: x}]\n'
bad "DeviceClass extendedResourceName" "5:25: DeviceClass c: spec.extendedResourceName: 'gpu' is not an extended resource name" \
	'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec:\n  extendedResourceName: gpu\n'
bad "DeviceClass selectors not a list" "5:14: DeviceClass c: spec.selectors: expected a list, got a mapping" \
	'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec:\n  selectors: {cel: {expression: x}}\n'
bad "ResourceClaimTemplate bad request" "9:55: ResourceClaimTemplate ml/t: spec.spec.devices.requests[0].exactly.allocationMode: 'Many' is not one of ExactCount, All" \
	'apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: ml}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: r\n        exactly: {deviceClassName: x, allocationMode: Many}\n'
bad "v1alpha3" "1:13: ResourceSlice c: apiVersion: 'resource.k8s.io/v1alpha3' is not supported (kplan reads resource.k8s.io/v1, v1beta2 and v1beta1; v1alpha3 is the Kubernetes 1.31 form)" \
	'apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceSlice\nmetadata: {name: c}\n'
bad "a pod claim of both kinds" "6:20: Pod ml/p: spec.resourceClaims[0]: exactly one of resourceClaimName and resourceClaimTemplateName is required" \
	'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  containers: [{name: c, image: x}]\n  resourceClaims: [{name: g, resourceClaimName: a, resourceClaimTemplateName: b}]\n'
bad "a pod claim twice" "6:60: Pod ml/p: spec.resourceClaims[1].name: 'g' twice" \
	'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  containers: [{name: c, image: x}]\n  resourceClaims: [{name: g, resourceClaimName: a}, {name: g, resourceClaimName: b}]\n'
bad "a container claim naming no pod claim" "5:64: Pod ml/p: spec.containers[0].resources.claims[0].name: must be the name of one entry in spec.resourceClaims" \
	'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  containers: [{name: c, image: x, resources: {claims: [{name: nope}]}}]\n'
bad "a workload template's pod claim" "10:24: Deployment ml/d: spec.resourceClaims[0]: exactly one of resourceClaimName and resourceClaimTemplateName is required" \
	'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: ml}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers: [{name: c, image: x}]\n      resourceClaims: [{name: g}]\n'
bad "resourceClaimStatuses not a list" "8:26: Pod ml/p: status.resourceClaimStatuses: expected a list, got a mapping" \
	'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  containers: [{name: c, image: x}]\n  resourceClaims: [{name: g, resourceClaimTemplateName: t}]\nstatus:\n  resourceClaimStatuses: {name: g}\n'

# --skip-invalid: the bad object reported and skipped, the others imported
printf 'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: good}\n---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: bad}\nspec: {selectors: [{}]}\n' >"$T/mixed.yaml"
cp "$db" "$T/skip.db"
run "$KPLAN" import --skip-invalid "$T/skip.db" "$T/mixed.yaml"
is "$rc" 0 "--skip-invalid: exit 0"
like "$err" "skipped invalid object: $T/mixed.yaml:8:20: DeviceClass bad: spec.selectors[0].cel: required" "--skip-invalid: the bad one reported"
is "$(q "$T/skip.db" "SELECT group_concat(name) FROM device_class WHERE name IN ('good', 'bad')")" "good" "--skip-invalid: the good one imported"

# ---- the realworld2 corpus: every DRA file ----
R=$KP_SHARED_DATA/realworld2
if [ ! -d "$R" ]; then
	skip "shared data absent ($R)" 52
	done_testing
fi
rw() { # rw FILE SQL WANT: imports alone, exit 0, SQL gives WANT
	local d=$T/rw.db
	rm -f "$d" "$d"-*
	run "$KPLAN" import "$d" "$R/$1"
	is "$rc" 0 "realworld2 $1: exit 0${err:+ ($err)}"
	is "$(ql "$d" "$2")" "$3" "realworld2 $1: rows"
}
rw autoscaler_e2e_dra_driver_bundle_deviceclass.yaml "SELECT c.name || '|' || s.expression || '|' || s.expr_line || ':' || s.expr_col FROM device_class c JOIN device_class_selector s ON s.class_id = c.id" \
	"gpu|device.driver == 'gpu.example.com'|41:22"
rw dranet_deviceclass_gke_multinetwork.yaml "SELECT c.name || '|' || s.expression || '|' || s.expr_line || ':' || s.expr_col FROM device_class c JOIN device_class_selector s ON s.class_id = c.id" \
	'multinic|device.driver == "dra.net"|22:21'
rw intel_gpu_deviceclasses.yaml "SELECT group_concat(name || ':' || (SELECT count(*) FROM device_class_selector WHERE class_id = c.id) || ':' || COALESCE(extended_resource_name, '-'), ' ') FROM device_class c" \
	"gpu.intel.com:1:- gpu-vfio.intel.com:1:-"
rw k8s-scheduler-perf_deviceclass_consumable_v1beta2.yaml "SELECT c.api_version || '|' || s.expr_line || ':' || s.expr_col || ':' || s.expr_block || '|' || s.expression FROM device_class c JOIN device_class_selector s ON s.class_id = c.id" \
	"resource.k8s.io/v1beta2|9:9:1|device.driver == \"test-driver.cdi.k8s.io\" &&
device.allowMultipleAllocations == true"
rw dra-example-driver_claim_shared_across_pods.yaml "SELECT group_concat(p.name || ':' || c.claim || ':' || c.claim_from, ' ') || '|' || (SELECT name || ':' || generated FROM resource_claim) FROM pod_resource_claim c JOIN pod p ON p.id = c.pod_id" \
	"pod0:single-gpu:spec pod1:single-gpu:spec|single-gpu:0"
rw dra-example-driver_claims_capacity_requests_multi_alloc.yaml "SELECT group_concat(c.name || ':' || k.name || '=' || k.value, ' ') FROM resource_claim c JOIN claim_request_capacity k ON k.spec_id = c.spec_id" \
	"shared-gpu-pod0:compute=20 shared-gpu-pod0:memory=17179869184 shared-gpu-pod1:compute=20 shared-gpu-pod1:memory=17179869184"
rw dra-example-driver_claim_opaque_config.yaml "SELECT (SELECT json_array_length(config) FROM claim_spec WHERE kind = 'ResourceClaimTemplate') || '|' || group_concat(c.name || '=' || c.containers, ' ') || '|' || (SELECT count(*) FROM resource_claim WHERE generated = 1) FROM pod_resource_claim c" \
	'2|shared-gpus=[{"container":"ts-ctr0","request":"ts-gpu"},{"container":"ts-ctr1","request":"ts-gpu"},{"container":"sp-ctr0","request":"sp-gpu"},{"container":"sp-ctr1","request":"sp-gpu"}]|1'
rw dra-example-driver_rct_admin_access_allocationmode_all.yaml "SELECT r.allocation_mode || ':' || COALESCE(r.count, '-') || ':' || r.admin_access || '|' || (SELECT template FROM resource_claim WHERE generated = 1) FROM claim_request r" \
	"All:0:1|multiple-gpus-admin"
rw dra-example-driver_rct_device_tolerations.yaml "SELECT group_concat(t.key || ':' || t.operator || ':' || t.value || ':' || t.effect) || '|' || (SELECT count(*) FROM resource_claim WHERE generated = 1) FROM claim_request_toleration t" \
	"gpu.example.com/unhealthy:Equal:true:NoExecute|2"
rw dra-example-driver_rct_firstavailable_cel.yaml "SELECT group_concat(request || '/' || subrequest || ':' || sub_seq, ' ') FROM (SELECT r.* FROM claim_request r JOIN resource_claim_template t ON t.spec_id = r.spec_id WHERE t.name = 'prioritized-gpu' ORDER BY sub_seq)" \
	"gpu/:0 gpu/bleeding-edge-gpu:1 gpu/huge-gpu:2 gpu/older-gpu:3"
rw dra-example-driver_rct_multiple_requests.yaml "SELECT group_concat(request || ':' || device_class, ' ') FROM claim_request" \
	"gpu-1:gpu.example.com gpu-2:gpu.example.com"
rw dra-example-driver_rct_partitionable_count2.yaml "SELECT request || ':' || count || '|' || (SELECT claim FROM pod_resource_claim) FROM claim_request" \
	"gpu-partition:2|pod0-gpu-partitions-qz984"
rw dranet_nvidia_resourceclaims.yaml "SELECT group_concat(r.request || ':' || r.device_class || ':' || r.count, ' ') || '|' || (SELECT COALESCE(requests, 'all') || ':' || match_attribute FROM claim_constraint) FROM claim_request r" \
	"gpu:gpu.nvidia.com:2 nic:dranet:2|all:resource.kubernetes.io/pcieRoot"
rw intel_gpu_claim_first_available_pod.yaml "SELECT group_concat(request || '/' || subrequest || ':' || COALESCE(device_class, '-'), ' ') || '|' || (SELECT claim_from FROM pod_resource_claim) FROM claim_request" \
	"ai-accelerator/:- ai-accelerator/gpu:gpu.intel.com ai-accelerator/gaudi:gaudi.intel.com|generated"
rw intel_qat_rcts.yaml "SELECT group_concat(t.name || ':' || s.expr_line || ':' || s.expr_col || ':' || s.expr_block, ' ') FROM resource_claim_template t JOIN claim_request_selector s ON s.spec_id = t.spec_id" \
	"qat-template-sym:15:17:1 qat-template-asym:35:17:1 qat-template-dc:55:17:1"
rw nvidia-dra_bats_multiple_mig.yaml "SELECT group_concat(r.request || ':' || s.expr_line, ' ') || '|' || (SELECT containers FROM pod_resource_claim) FROM claim_request r JOIN claim_request_selector s ON s.spec_id = r.spec_id AND s.request = r.request" \
	'mig1:19 mig2:26|[{"container":"ctr0","request":"mig1"},{"container":"ctr1","request":"mig2"}]'
rw nvidia-dra_rct_gpu_v1beta1.yaml "SELECT t.api_version || '|' || r.request || ':' || r.device_class || ':' || r.allocation_mode || ':' || r.count || '|' || (SELECT count(*) FROM resource_claim WHERE generated = 1) FROM resource_claim_template t JOIN claim_request r ON r.spec_id = t.spec_id" \
	"resource.k8s.io/v1beta1|gpu:gpu.nvidia.com:ExactCount:1|2"
rw nvidia-dra_rct_timeslicing_mps_opaque_config_v1.yaml "SELECT json_extract(config, '\$[1].opaque.parameters.sharing.mpsConfig.defaultPinnedDeviceMemoryLimit') || '|' || (SELECT count(*) FROM claim_request) FROM claim_spec" \
	"10Gi|2"
rw nvidia-dra_deviceclass_extended_resource_gpu_pod.yaml "SELECT count(*) FROM pod_resource_claim" "0"
rw dra-example-driver_devicetaintrule_v1beta2.yaml "SELECT json_extract(counts, '\$.skipped_api.\"resource.k8s.io/v1beta2 DeviceTaintRule\"') FROM import_batch" "1"
# refused: API round-trip fixtures (every field set, placeholder values) and classic DRA
rf() { # rf FILE MESSAGE
	run "$KPLAN" import "$T/rf.db" "$R/$1"
	is "$rc" 1 "realworld2 $1: refused"
	like "$err" "$R/$1:$2" "realworld2 $1: the message"
}
rf k8s-api-testdata_resourceslice_v1_allfields.yaml \
	"36:3: ResourceSlice nameValue: spec: exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is required, but several are set (nodeName, nodeSelector, allNodes, perDeviceNodeSelection)"
rf k8s-api-testdata_resourceslice_v1beta1_capacitypools_allfields.yaml \
	"36:3: ResourceSlice nameValue: spec: exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is required, but several are set"
rf nvidia-dra_mig_mps_sharing_claims.yaml \
	"2:13: ResourceClaim sharing-demo/gpu-ts-sharing: apiVersion: 'resource.k8s.io/v1alpha2' is not supported (kplan reads resource.k8s.io/v1, v1beta2 and v1beta1; v1alpha2 is classic DRA (resourceClassName, parametersRef), removed in Kubernetes 1.32)"
# the v1 fixture with one node selection: what else it holds is refused in turn
sed -e 36d -e 100,112d "$R/k8s-api-testdata_resourceslice_v1_allfields.yaml" >"$T/fixture.yaml"
run "$KPLAN" import "$T/rf2.db" "$T/fixture.yaml"
like "$err" "fixture.yaml:104:3: ResourceSlice nameValue: spec: only one of sharedCounters or devices is allowed" \
	"realworld2 v1 fixture, nodeName only: sharedCounters beside devices refused"
sed -e 36d -e 100,112d -e 117,122d "$R/k8s-api-testdata_resourceslice_v1_allfields.yaml" >"$T/fixture.yaml"
run "$KPLAN" import "$T/rf2.db" "$T/fixture.yaml"
like "$err" "fixture.yaml:41:9: ResourceSlice nameValue: spec.devices[0].attributes.attributesKey: exactly one of int, bool, string, version must be set, got 8" \
	"realworld2 v1 fixture, without sharedCounters: an attribute of 8 values refused"
# a selector outside kplan's CEL subset, or not CEL, is refused at import
# with its position (the expression's own plus the error's within it)
cat >"$T/badcel.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: bad}
spec:
  selectors:
  - cel: {expression: 'device.attributes["x"].all(a, a > 1)'}
YAML
rm -f "$T/badcel.db"*
run "$KPLAN" import "$T/badcel.db" "$T/badcel.yaml"
is "$rc" 1 "a CEL macro outside the subset: refused"
like "$err" "badcel.yaml:6:47: DeviceClass bad: spec.selectors[0].cel.expression: CEL: unsupported: the macro 'all'" \
	"... with file, line and column of the construct"
is "$([ -e "$T/badcel.db" ] && q "$T/badcel.db" "SELECT count(*) FROM device_class" || echo none)" none "... and nothing imported"
cat >"$T/badcel2.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: r
      exactly:
        deviceClassName: gpu
        selectors:
        - cel: {expression: 'noSuchVar == 1'}
YAML
run "$KPLAN" import "$T/badcel.db" "$T/badcel2.yaml"
like "$err" "badcel2.yaml:11:30: ResourceClaim default/c: spec.devices.requests[0].exactly.selectors[0].cel.expression: CEL: undeclared reference to 'noSuchVar'" \
	"an unknown variable: refused where it is"

# the corpus together (but the refused), and a plan of it
rm -f "$T/all.db"*
set -- $(cd "$R" && ls autoscaler_e2e_dra_* dra-example-driver_* dranet_* intel_* k8s-scheduler-perf_deviceclass_* nvidia-dra_*.yaml | grep -v mig_mps)
run "$KPLAN" import "$T/all.db" "${@/#/$R/}"
is "$rc" 0 "realworld2 DRA corpus together: exit 0${err:+ ($err)}"
like "$out" "5 device classes, 3 resource claims, 13 resource claims generated, 16 resource claim templates;" "realworld2 DRA corpus: the counts"
is "$(q "$T/all.db" "SELECT count(*) FROM pod_resource_claim WHERE claim_from = 'generated' AND claim NOT IN (SELECT name FROM resource_claim)")" 0 \
	"realworld2 DRA corpus: every template claim has its generated claim"
run "$KPLAN" plan -q "$T/all.db"
is "$rc" 0 "realworld2 DRA corpus: plan exit 0"
like "$err" "kplan: warning: dra: " "realworld2 DRA corpus: plan warns that the claims were not judged"
is "$(q "$T/all.db" "SELECT pods = (SELECT count(DISTINCT r.pod_id) FROM pod_resource_claim r JOIN placement pl ON pl.pod_id = r.pod_id AND pl.run_id = 1 WHERE pl.action IN ('bind', 'unschedulable')) FROM run_warning WHERE kind = 'dra'")" 1 \
	"realworld2 DRA corpus: the warning counts the pending pods with claims (run_warning.pods)"

# the dra-example-driver manifests planned on two nodes of eight GPUs each
# (tests/data/dra/two-nodes-8-gpus.yaml: four LATEST-GPU-MODEL and four
# OLDER, 80Gi each): every pod placed; the admin-access claim (All) takes
# all eight GPUs of its node whatever else holds them; firstAvailable falls
# to its last subrequest (no BLEEDING-EDGE-GPU, no 1Ti GPU)
rm -f "$T/ex.db"*
run "$KPLAN" import -q "$T/ex.db" "$TESTS_DIR/data/dra/two-nodes-8-gpus.yaml" "$R"/dra-example-driver_*.yaml
is "$rc" 0 "dra-example-driver on two nodes: import"
run "$KPLAN" plan -q "$T/ex.db"
is "$(q "$T/ex.db" "SELECT count(*) || ' ' || sum(action = 'bind') FROM placement WHERE run_id = 1")" "12 12" \
	"dra-example-driver: all 12 pods placed"
is "$(q "$T/ex.db" "SELECT count(*) FROM dra_allocation WHERE run_id = 1")" 21 "dra-example-driver: 21 devices allocated"
is "$(q "$T/ex.db" "SELECT count(DISTINCT device) || ' ' || count(DISTINCT node_id) || ' ' || min(admin_access) FROM dra_allocation WHERE request = 'admin-gpu'")" "8 1 1" \
	"dra-example-driver: the admin-access All request takes the eight GPUs of one node"
is "$(q "$T/ex.db" "SELECT group_concat(DISTINCT request) FROM dra_allocation WHERE claim IN (SELECT claim FROM pod_resource_claim r JOIN pod p ON p.id = r.pod_id WHERE p.namespace = (SELECT namespace FROM resource_claim_template WHERE source LIKE '%firstavailable_cel%' LIMIT 1))")" "gpu/older-gpu" \
	"dra-example-driver: firstAvailable takes its third subrequest"
run "$KPLAN" explain "$T/ex.db" "$(q "$T/ex.db" "SELECT p.namespace || '/' || p.name FROM pod p JOIN pod_resource_claim r ON r.pod_id = p.id JOIN dra_allocation a ON a.claim = r.claim WHERE a.request = 'admin-gpu' LIMIT 1")"
like "$out" "to allocate: admin-gpu (class gpu.example.com, admin access, all devices); on node-2: admin-gpu=gpu.example.com/node-2/gpu-0 " \
	"explain: the devices block names what the claim asks and the devices the allocator takes on the chosen node"

# --from-run keeps run 1's allocations; a drain releases the claims a pod
# owns (made from its templates: the controller deletes them with the pod)
# and keeps shared named claims allocated (their pods stay pinned)
run "$KPLAN" plan --from-run 1 "$T/ex.db"
like "$out" "21 devices it allocated so" "--from-run: run 1's allocations stay"
is "$(q "$T/ex.db" "SELECT group_concat(action || '=' || n, ' ') FROM (SELECT action, count(*) AS n FROM placement WHERE run_id = (SELECT max(id) FROM run) GROUP BY 1 ORDER BY 1)")" "keep=12" \
	"--from-run: every pod kept where run 1 put it, no device given twice"
run "$KPLAN" plan --from-run 1 --drain node-2 "$T/ex.db"
is "$(q "$T/ex.db" "SELECT count(*) FROM placement pl WHERE pl.run_id = (SELECT max(id) FROM run) AND pl.action = 'move' AND NOT EXISTS (SELECT 1 FROM pod_resource_claim r WHERE r.pod_id = pl.pod_id AND r.template IS NULL)")" \
	"$(q "$T/ex.db" "SELECT count(*) FROM placement WHERE run_id = (SELECT max(id) FROM run) AND action = 'move'")" \
	"--drain: the pods that move are those whose claims are their own (templates)"
like "$(q "$T/ex.db" "SELECT group_concat(reason, ' ') FROM placement WHERE run_id = (SELECT max(id) FROM run) AND action = 'unschedulable'")" \
	"resourceclaim not available on the node" "--drain: a pod of a shared claim allocated on the drained node stays pinned"

# capacity --nodes-needed: a node template without devices is no home for a
# pod whose claim needs a GPU (tests/data/dra/one-node-two-gpus.yaml: two
# GPUs for four replicas)
cat >"$T/tmpl.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: big}
status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110"}}
YAML
rm -f "$T/cap.db"*
"$KPLAN" import -q "$T/cap.db" "$TESTS_DIR/data/dra/one-node-two-gpus.yaml"
run "$KPLAN" capacity --nodes-needed --node-template "$T/tmpl.yaml" "$T/cap.db"
like "$out" "2 pending pods can never fit on nodes like $T/tmpl.yaml" "capacity: a template without devices never fits the two pods left without a GPU"
like "$out" "cannot allocate all claims" "capacity: ... and says why"

# DRA-backed extended resources (§16.8): a node that does not advertise
# example.com/gpu leaves it to DRA, which allocates the DeviceClass's
# devices; a node that advertises it keeps it with NodeResourcesFit
rm -f "$T/ext.db"*
"$KPLAN" import -q "$T/ext.db" "$TESTS_DIR/data/dra/extended-resource.yaml"
run "$KPLAN" plan -q "$T/ext.db"
like "$(q "$T/ext.db" "SELECT reason FROM placement WHERE run_id = 1")" "0/1 nodes are available: 1 cannot allocate all claims." \
	"an extended resource no node advertises and no device backs: DynamicResources, not NodeResourcesFit, rejects"
rm -f "$T/ext2.db"*
"$KPLAN" import -q "$T/ext2.db" "$TESTS_DIR/data/dra/extended-resource-two-ways.yaml"
run "$KPLAN" plan -q "$T/ext2.db"
is "$(q "$T/ext2.db" "SELECT group_concat(n.name, ' ') FROM (SELECT * FROM placement WHERE run_id = 1 AND action = 'bind' ORDER BY pod_id) pl JOIN node n ON n.id = pl.node_id")" \
	"n1 n2 n1" "two GPUs by DRA on n1, one by the device plugin on n2: three of four pods placed"
is "$(q "$T/ext2.db" "SELECT group_concat(claim || ':' || device, ' ') FROM (SELECT * FROM dra_allocation WHERE run_id = 1 ORDER BY seq)")" \
	"ext-0-extended-resources:gpu-0 ext-2-extended-resources:gpu-1" "the devices DRA allocated for the extended resource"
like "$(q "$T/ext2.db" "SELECT reason FROM placement WHERE run_id = 1 AND action = 'unschedulable'")" \
	"0/2 nodes are available: 1 Insufficient example.com/gpu, 1 cannot allocate all claims." \
	"the fourth: n2's device plugin is full (NodeResourcesFit), n1's devices are taken (DynamicResources)"

done_testing
