#!/usr/bin/env bash
# 70-report-dra.t — the report's devices sections (docs/reports.md
# "Devices"): devices (counts), devices_nodes, devices_allocations and
# devices_unallocated for a small cluster with Dynamic Resource Allocation,
# in every format, the values worked out by hand from the YAML below and
# checked against the tables (slice_device, resource_claim_result,
# dra_allocation, placement, pod_resource_claim); the counts equal the rows;
# a database without dra_allocation; the sections absent for a cluster
# without DRA objects and for a database without the DRA tables (as an
# import before them made it), whose reports are otherwise unchanged.
. "$(dirname "$0")/../lib.sh"
dump() { sqlite3 "$1" .dump | sha256sum | cut -d' ' -f1; }
# json FILE PERL-EXPR: evaluate EXPR with $d = the decoded report
json() { perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>); print eval($ARGV[1]) // "undef"; die $@ if $@' "$1" "$2"; }
# dev_text FILE: the devices sections of a text report, without their notes
# the devices sections: from "Devices" up to the GPU fragmentation sections (71-report-gpu.t)
dev_text() { sed -n '/^Devices$/,$p' "$1" | sed '/^GPU fragmentation$/,$d' | awk '!/^\(.*\)$/ || $0 == "(none)"' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }

# Two nodes, gpu-1 and gpu-2 (zones a, b); DeviceClass gpu.example.com
# (CEL: device.driver == "gpu.example.com").  ResourceSlices:
#   gpu-1-old   pool gpu-1 generation 1, 4 devices: an older generation, not counted
#   gpu-1-gpus  pool gpu-1 generation 2, node gpu-1: gpu-0, gpu-1
#   gpu-2-gpus  pool gpu-2 generation 1, node gpu-2: gpu-0, gpu-1, gpu-2
#   fabric      nic.example.com pool fabric, allNodes: nic-0, nic-1
#   rack-a      nic.example.com pool rack-a, nodeSelector zone in (a): link-0
# Claims: ml/existing allocated in the input (gpu-1/gpu-0, status.allocation),
# used by the running pod runner on gpu-1; ml/shared-gpu by name, used by
# infer-a and infer-b; train-1..4 each a claim from the template one-gpu.
# Five GPUs, one in use: the four free ones go to shared-gpu (once) and
# train-1..3; train-4 is left unschedulable, its claim unallocated.  web has
# no claim.
cat >"$T/d.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata:
  name: gpu-1
  labels: {kubernetes.io/hostname: gpu-1, topology.kubernetes.io/zone: a}
status:
  allocatable: {cpu: "8", memory: 16Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-2
  labels: {kubernetes.io/hostname: gpu-2, topology.kubernetes.io/zone: b}
status:
  allocatable: {cpu: "8", memory: 16Gi, pods: "110"}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu-1-old}
spec:
  driver: gpu.example.com
  pool: {name: gpu-1, generation: 1, resourceSliceCount: 1}
  nodeName: gpu-1
  devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}, {name: gpu-3}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu-1-gpus}
spec:
  driver: gpu.example.com
  pool: {name: gpu-1, generation: 2, resourceSliceCount: 1}
  nodeName: gpu-1
  devices:
  - {name: gpu-0, attributes: {model: {string: A100}}}
  - {name: gpu-1, attributes: {model: {string: A100}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu-2-gpus}
spec:
  driver: gpu.example.com
  pool: {name: gpu-2, generation: 1, resourceSliceCount: 1}
  nodeName: gpu-2
  devices: [{name: gpu-0}, {name: gpu-1}, {name: gpu-2}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: nic.example.com
  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
  allNodes: true
  devices: [{name: nic-0}, {name: nic-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: rack-a}
spec:
  driver: nic.example.com
  pool: {name: rack-a, generation: 1, resourceSliceCount: 1}
  nodeSelector:
    nodeSelectorTerms:
    - matchExpressions:
      - {key: topology.kubernetes.io/zone, operator: In, values: [a]}
  devices: [{name: link-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: existing, namespace: ml}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: gpu-1, device: gpu-0}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [gpu-1]}
  reservedFor:
  - {resource: pods, name: runner, uid: uid-runner}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared-gpu, namespace: ml}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: ml}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: runner, namespace: ml, uid: uid-runner}
spec:
  nodeName: gpu-1
  containers: [{name: c, image: train, resources: {requests: {cpu: "1", memory: 1Gi}, claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimName: existing}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: infer-a, namespace: ml, creationTimestamp: "2026-01-01T00:00:01Z"}
spec:
  containers: [{name: c, image: infer, resources: {requests: {cpu: "1", memory: 1Gi}, claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimName: shared-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: infer-b, namespace: ml, creationTimestamp: "2026-01-01T00:00:02Z"}
spec:
  containers: [{name: c, image: infer, resources: {requests: {cpu: "1", memory: 1Gi}, claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimName: shared-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: train-1, namespace: ml, creationTimestamp: "2026-01-01T00:00:03Z"}
spec:
  containers: [{name: c, image: train, resources: {requests: {cpu: "1", memory: 1Gi}, claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: train-2, namespace: ml, creationTimestamp: "2026-01-01T00:00:04Z"}
spec:
  containers: [{name: c, image: train, resources: {requests: {cpu: "1", memory: 1Gi}, claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: train-3, namespace: ml, creationTimestamp: "2026-01-01T00:00:05Z"}
spec:
  containers: [{name: c, image: train, resources: {requests: {cpu: "1", memory: 1Gi}, claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: train-4, namespace: ml, creationTimestamp: "2026-01-01T00:00:06Z"}
spec:
  containers: [{name: c, image: train, resources: {requests: {cpu: "1", memory: 1Gi}, claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: ml, creationTimestamp: "2026-01-01T00:00:07Z"}
spec:
  containers: [{name: c, image: web, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
YAML
db="$T/d.db"
"$KPLAN" import -q "$db" "$T/d.yaml" || fail "import the cluster with devices"
# the claims generated from the template (kp_claim_name: deterministic, 17 characters)
claim() { q "$db" "SELECT name FROM resource_claim WHERE owner_name = '$1'"; }

dra_tests() {
	c1=$(claim train-1) c2=$(claim train-2) c3=$(claim train-3) c4=$(claim train-4)
	is "${#c1} ${#c2} ${#c3} ${#c4}" "17 17 17 17" "the generated claims' names: <pod>-gpu-<5 characters>"
	before=$(dump "$db")
	"$KPLAN" report --no-timing "$db" >"$T/d.txt"
	is "$?" 0 "report: exit 0"
	# worked out by hand: gpu-1's newest generation has 2 devices (not the 4
	# of generation 1), gpu-0 in use by the claim allocated in the input,
	# gpu-1 by the run; gpu-2's 3 all by the run; the nic pools untouched,
	# each listed once.  shared-gpu is allocated once (by infer-a), train-4
	# finds no device.  The nodes are the plan's: infer-a (and infer-b, on
	# the claim's node) on the emptier gpu-2, train-1 then on gpu-1.
	is "$(dev_text "$T/d.txt")" "Devices
-------
device_rows              4
pools                    4
incomplete_pools         0
devices                  8
in_use_before            1
in_use_run               4
in_use                   5
free                     3
claims_allocated_before  1
results_outside_slices   0
allocations              4
allocations_admin        0
claims_allocated_by_run  4
pods_allocating          4
unallocated_claims       1
unallocated_pods         1

Devices: per node and pool
--------------------------
node                driver           pool    reach                                                             devices  in use before  in use run  in use  free  generation  pool status
------------------  ---------------  ------  ----------------------------------------------------------------  -------  -------------  ----------  ------  ----  ----------  -----------
gpu-1               gpu.example.com  gpu-1   node-local                                                              2              1           1       2     0           2  complete
gpu-2               gpu.example.com  gpu-2   node-local                                                              3              0           3       3     0           1  complete
(all nodes)         nic.example.com  fabric  all nodes                                                               2              0           0       0     2           1  complete
(network-attached)  nic.example.com  rack-a  node selector, not evaluated: topology.kubernetes.io/zone in (a)        1              0           0       0     1           1  complete

Devices: the run's allocations
------------------------------
seq  pod         claim              request  driver           pool   device  admin access  node
---  ----------  -----------------  -------  ---------------  -----  ------  ------------  -----
  1  ml/infer-a  shared-gpu         gpu      gpu.example.com  gpu-2  gpu-0              0  gpu-2
  2  ml/train-1  $c1  gpu      gpu.example.com  gpu-1  gpu-1              0  gpu-1
  3  ml/train-2  $c2  gpu      gpu.example.com  gpu-2  gpu-1              0  gpu-2
  4  ml/train-3  $c3  gpu      gpu.example.com  gpu-2  gpu-2              0  gpu-2

Devices: claims left unallocated
--------------------------------
pod         pod claim  claim              claim from                    status         reason
----------  ---------  -----------------  ----------------------------  -------------  ----------------------------------------------------------------------------------------------------------------------------------------
ml/train-4  gpu        $c4  generated (template one-gpu)  not allocated  $(q "$db" "SELECT reason FROM placement WHERE run_id = 1 AND pod_id = (SELECT id FROM pod WHERE name = 'train-4')")" \
		"text: the four devices sections"
	like "$(cat "$T/d.txt")" "(the DynamicResources plugin's allocations (dra_allocation) in order" "text: each section says which tables it reads"
	like "$(sed -n '/^Moves$/,/^Devices$/p' "$T/d.txt")" "Devices" "text: the devices sections come after the moves"
	like "$(grep '^ml/train-4 ' "$T/d.txt")" "cannot allocate all claims" "text: train-4's reason is DynamicResources'"

	# the numbers against the tables, not the report's SQL
	"$KPLAN" report --format json -o "$T/d.json" -q "$db"
	is "$(json "$T/d.json" 'join ";", map { "$_->{pod} $_->{claim} $_->{request} $_->{driver}/$_->{pool}/$_->{device} $_->{node}" } @{$d->{devices_allocations}}')" \
		"$(q "$db" "SELECT group_concat(p.namespace || '/' || p.name || ' ' || claim || ' ' || request || ' ' || driver || '/' || pool || '/' || device || ' ' || n.name, ';')
			FROM (SELECT * FROM dra_allocation WHERE run_id = 1 ORDER BY seq) a JOIN pod p ON p.id = a.pod_id JOIN node n ON n.id = a.node_id")" \
		"json: devices_allocations = dra_allocation of the run"
	is "$(json "$T/d.json" 'join ";", map { "$_->{pod} $_->{node}" } @{$d->{devices_allocations}}')" \
		"$(q "$db" "SELECT group_concat(pod || ' ' || node, ';') FROM (SELECT p.namespace || '/' || p.name AS pod, n.name AS node
			FROM placement pl JOIN pod p ON p.id = pl.pod_id JOIN node n ON n.id = pl.node_id
			WHERE pl.run_id = 1 AND p.name IN ('infer-a', 'train-1', 'train-2', 'train-3') ORDER BY pl.seq)")" \
		"json: the allocations' nodes = placement's"
	is "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND node_id = (SELECT node_id FROM placement pl JOIN pod p ON p.id = pl.pod_id
			WHERE pl.run_id = 1 AND p.name = 'infer-a') AND pod_id = (SELECT id FROM pod WHERE name = 'infer-b')")" 1 \
		"infer-b shares infer-a's claim and node; no allocation of its own"
	is "$(json "$T/d.json" 'join ";", map { "$_->{node} $_->{pool} $_->{devices}" } grep { $_->{reach} eq "node-local" } @{$d->{devices_nodes}}')" \
		"$(q "$db" "SELECT group_concat(node_name || ' ' || pool || ' ' || n, ';') FROM (SELECT s.node_name, s.pool, count(*) AS n
			FROM resource_slice s JOIN slice_device d ON d.slice_id = s.id
			WHERE s.node_name IS NOT NULL AND s.pool_generation = (SELECT max(pool_generation) FROM resource_slice t WHERE t.pool = s.pool)
			GROUP BY 1, 2 ORDER BY 1)")" "json: node-local devices = slice_device rows of the newest generation"
	is "$(json "$T/d.json" 'join ";", map { "$_->{pool} $_->{in_use_run}" } @{$d->{devices_nodes}}')" \
		"$(q "$db" "SELECT group_concat(pool || ' ' || n, ';') FROM (SELECT s.pool, (SELECT count(*) FROM dra_allocation a
			WHERE a.run_id = 1 AND a.pool = s.pool AND NOT a.admin_access) AS n FROM resource_slice s
			WHERE s.name IN ('gpu-1-gpus', 'gpu-2-gpus', 'fabric', 'rack-a') ORDER BY s.node_name IS NULL, s.node_selector IS NOT NULL, s.node_name)")" \
		"json: in_use_run = dra_allocation rows per pool"
	is "$(json "$T/d.json" 'join ";", map { "$_->{pool} $_->{in_use_before}" } @{$d->{devices_nodes}}')" \
		"$(q "$db" "SELECT group_concat(pool || ' ' || n, ';') FROM (SELECT s.pool, (SELECT count(*) FROM resource_claim_result r
			JOIN resource_claim c ON c.id = r.claim_id WHERE c.allocated AND r.pool = s.pool AND NOT r.admin_access) AS n FROM resource_slice s
			WHERE s.name IN ('gpu-1-gpus', 'gpu-2-gpus', 'fabric', 'rack-a') ORDER BY s.node_name IS NULL, s.node_selector IS NOT NULL, s.node_name)")" \
		"json: in_use_before = resource_claim_result rows of allocated claims per pool"
	is "$(json "$T/d.json" 'join ";", map { "$_->{pod} $_->{claim}" } @{$d->{devices_unallocated}}')" \
		"$(q "$db" "SELECT group_concat(p.namespace || '/' || p.name || ' ' || c.claim, ';') FROM placement pl JOIN pod p ON p.id = pl.pod_id
			JOIN pod_resource_claim c ON c.pod_id = p.id WHERE pl.run_id = 1 AND pl.action = 'unschedulable'")" \
		"json: devices_unallocated = the claims of the run's unschedulable pods"
	is "$(json "$T/d.json" '$d->{devices}{claims_allocated_before}')" "$(q "$db" "SELECT count(*) FROM resource_claim WHERE allocated")" \
		"json: claims_allocated_before = allocated resource_claim rows"
	is "$(json "$T/d.json" '$d->{devices}{allocations}')" "$(q "$db" "SELECT count(*) FROM dra_allocation WHERE run_id = 1")" \
		"json: allocations = dra_allocation rows of the run"
	# the counts are the rows
	is "$(json "$T/d.json" 'my $v = $d->{devices}; my @n = @{$d->{devices_nodes}}; my @a = @{$d->{devices_allocations}};
		my @u = @{$d->{devices_unallocated}}; my $sum = sub { my $k = shift; my $s = 0; $s += $_->{$k} for @n; $s };
		my %pools = map { ("$_->{driver}/$_->{pool}", 1) } @n; my %claims = map { ($_->{claim}, 1) } @a;
		my %pods = map { ($_->{pod}, 1) } @a; my %upods = map { ($_->{pod}, 1) } @u;
		join " ", $v->{device_rows} == @n ? "ok" : "rows", $v->{pools} == keys %pools ? "ok" : "pools",
		(map { $v->{$_} == $sum->($_) ? "ok" : $_ } qw(devices in_use_before in_use_run in_use free)),
		(grep({ $_->{free} != $_->{devices} - $_->{in_use} } @n) ? "free" : "ok"),
		$v->{allocations} == @a ? "ok" : "allocations", $v->{claims_allocated_by_run} == keys %claims ? "ok" : "claims",
		$v->{pods_allocating} == keys %pods ? "ok" : "pods", $v->{allocations_admin} == grep({ $_->{admin_access} } @a) ? "ok" : "admin",
		$v->{unallocated_claims} == @u ? "ok" : "unallocated", $v->{unallocated_pods} == keys %upods ? "ok" : "upods"')" \
		"ok ok ok ok ok ok ok ok ok ok ok ok ok ok" "json: the counts of devices are the rows of the three tables"
	is "$(grep -o '"devices[a-z_]*": *[[{]' "$T/d.json" | tr -d ' [{' | tr '\n' ' ')" \
		'"devices": "devices_nodes": "devices_allocations": "devices_unallocated": ' "json: the four devices keys, in order"
	# csv, markdown, html
	"$KPLAN" report --no-timing --format csv "$db" >"$T/d.csv"
	is "$(grep -c '^devices_nodes,' "$T/d.csv") $(grep -c '^devices_allocations,' "$T/d.csv") $(grep -c '^devices_unallocated,' "$T/d.csv") $(grep -c '^devices,' "$T/d.csv")" \
		"4 4 1 16" "csv: devices_nodes 4 rows, devices_allocations 4, devices_unallocated 1, devices 16 keys"
	is "$(grep '^devices_nodes,gpu-1,' "$T/d.csv")" "devices_nodes,gpu-1,gpu.example.com,gpu-1,node-local,2,1,1,2,0,2,complete" "csv: a node's row"
	is "$(grep '^devices_allocations,1,' "$T/d.csv")" "devices_allocations,1,ml/infer-a,shared-gpu,gpu,gpu.example.com,gpu-2,gpu-0,0,gpu-2" \
		"csv: an allocation"
	"$KPLAN" report --no-timing --format markdown "$db" >"$T/d.md"
	like "$(cat "$T/d.md")" "| (network-attached) | nic.example.com | rack-a | node selector, not evaluated: topology.kubernetes.io/zone in (a) | 1 | 0 | 0 | 0 | 1 | 1 | complete |" \
		"markdown: a network-attached pool"
	like "$(cat "$T/d.md")" "| ml/train-4 | gpu | $c4 | generated (template one-gpu) | not allocated |" "markdown: the unallocated claim"
	"$KPLAN" report --no-timing --format html "$db" >"$T/d.html"
	is "$(grep -o '<section id="devices[a-z_]*">' "$T/d.html" | tr '\n' ' ')" \
		'<section id="devices"> <section id="devices_nodes"> <section id="devices_allocations"> <section id="devices_unallocated"> ' \
		"html: a section per devices table, the counts too"
	is "$(sed -n '/<section id="devices">/,/<\/section>/p' "$T/d.html" | grep -c '<tr><th scope="row">[a-z_]*</th><td>[0-9]*</td></tr>')" \
		16 "html: the counts as a key/value table"
	like "$(cat "$T/d.html")" '<a href="#devices_unallocated">Devices: claims left unallocated</a>' "html: in the navigation"
	is "$(dump "$db")" "$before" "the database is unchanged by the reports"

	# a database without dra_allocation (made before it): nothing allocated by the run
	cp "$db" "$T/noalloc.db"
	sqlite3 "$T/noalloc.db" "DROP TABLE dra_allocation" || fail "drop dra_allocation"
	run "$KPLAN" report --no-timing "$T/noalloc.db"
	is "$rc" 0 "without dra_allocation: exit 0"
	printf '%s\n' "$out" >"$T/noalloc.txt"
	is "$(dev_text "$T/noalloc.txt" | sed -n '/^in_use/p; /^allocations /p; /^unallocated_claims/p; /^Devices: the run/,/^$/p')" "in_use_before            1
in_use_run               0
in_use                   1
allocations              0
unallocated_claims       1
Devices: the run's allocations
------------------------------
(none)" "without dra_allocation: only the claim allocated in the input holds a device"

	# a database without the DRA tables (imported before them): as before, without the sections
	cp "$db" "$T/old.db"
	sqlite3 "$T/old.db" "DROP VIEW dra_cel; DROP TABLE dra_allocation; DROP TABLE workload_resource_claim;
		DROP TABLE pod_resource_claim; DROP TABLE resource_claim_template; DROP TABLE resource_claim_reserved;
		DROP TABLE resource_claim_consumed; DROP TABLE resource_claim_result; DROP TABLE resource_claim;
		DROP TABLE claim_constraint; DROP TABLE claim_request_capacity; DROP TABLE claim_request_toleration;
		DROP TABLE claim_request_selector; DROP TABLE claim_request; DROP TABLE claim_spec; DROP TABLE device_taint;
		DROP TABLE device_counter; DROP TABLE device_capacity; DROP TABLE device_attribute; DROP TABLE slice_device;
		DROP TABLE slice_counter; DROP TABLE resource_slice; DROP TABLE device_class_selector; DROP TABLE device_class;
		DROP TABLE gpu_fragmentation; DROP TABLE gpu_typical_shape" \
		|| fail "drop the DRA tables"
	is "$(q "$T/old.db" "SELECT count(*) FROM sqlite_master WHERE name IN ('resource_slice', 'resource_claim', 'pod_resource_claim', 'dra_allocation')")" 0 \
		"the old database has no DRA tables"
	run "$KPLAN" report --no-timing "$T/old.db"
	is "$rc:$out" "0:$(sed '/^Devices$/,$d' "$T/d.txt" | sed '$d')" "without the DRA tables: text exits 0, the report up to the devices sections"
	run "$KPLAN" report --no-timing --format json "$T/old.db"
	printf '%s\n' "$out" >"$T/old.json"
	"$KPLAN" report --no-timing --format json -o "$T/d-nt.json" -q "$db"
	is "$rc:$(json "$T/old.json" 'JSON::PP->new->canonical->encode($d)')" \
		"0:$(json "$T/d-nt.json" 'delete @$d{qw(devices devices_nodes devices_allocations devices_unallocated gpu gpu_pools gpu_fragmented gpu_nodes gpu_shapes)}; JSON::PP->new->canonical->encode($d)')" \
		"without the DRA tables: json exits 0, the report without the devices and GPU keys"
	# (the warning the plan wrote names devices: look for the sections)
	run "$KPLAN" report --no-timing --format csv "$T/old.db"
	is "$rc:$(printf %s "$out" | grep -c '^devices')" "0:0" "without the DRA tables: csv exits 0, no devices section"
	run "$KPLAN" report --no-timing --format markdown "$T/old.db"
	is "$rc:$(printf %s "$out" | grep -c '^## Devices')" "0:0" "without the DRA tables: markdown exits 0, no devices section"
	run "$KPLAN" report --no-timing --format html "$T/old.db"
	is "$rc:$(printf %s "$out" | grep -c 'id="devices\|href="#devices')" "0:0" "without the DRA tables: html exits 0, no devices section"
}

run "$KPLAN" plan -q "$db"
if [ "$rc" = 0 ]; then
	dra_tests
else
	fail "plan the cluster with devices: $err"
fi

# ---- no DRA objects: no devices section ----
cat >"$T/plain.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: {kubernetes.io/hostname: node-1, topology.kubernetes.io/zone: a}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers: [{name: c, image: web, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: big, namespace: default}
spec:
  containers: [{name: c, image: big, resources: {requests: {cpu: "8", memory: 128Mi}}}]
YAML
pdb="$T/plain.db"
"$KPLAN" import -q "$pdb" "$T/plain.yaml" || fail "import the cluster without DRA objects"
"$KPLAN" plan -q "$pdb" || fail "plan the cluster without DRA objects"
is "$(q "$pdb" "SELECT (SELECT count(*) FROM sqlite_master WHERE name IN ('resource_slice', 'resource_claim', 'pod_resource_claim')) || ' ' ||
	(SELECT count(*) FROM resource_slice) || ' ' || (SELECT count(*) FROM resource_claim) || ' ' || (SELECT count(*) FROM pod_resource_claim)")" \
	"3 0 0 0" "without DRA objects: the DRA tables exist, empty"
for f in text markdown csv json html; do
	"$KPLAN" report --no-timing --format $f "$pdb" >"$T/plain.$f" || fail "report --format $f without DRA objects"
done
is "$(cd "$T" && grep -il 'devices' plain.text plain.markdown plain.csv plain.json plain.html | wc -l)" 0 "without DRA objects: no devices section in any format"
like "$(cat "$T/plain.text")" "Unschedulable pods" "without DRA objects: the report is there (an unschedulable pod without claims)"

done_testing
