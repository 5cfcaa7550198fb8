#!/usr/bin/env bash
# 71-report-gpu.t — GPU fragmentation (docs/gpu-devices.md) and the report's
# GPU sections (docs/reports.md "GPU fragmentation"): a two-node openb
# cluster written below, imported and planned; the run's gpu_fragmentation
# rows against the pods placed (free milli), the GPU each share went to
# (best fit, read off free_list and dra_allocation), frag_milli worked out
# by hand with the FGD measure's rules; the sections gpu, gpu_pools,
# gpu_fragmented, gpu_nodes and gpu_shapes against the tables, in every
# format, and the HTML chart chart-gpu; the sections absent for a cluster
# without GPUs and for a database without the GPU tables; and the openb
# default list ($KP_SHARED_DATA/openb, skipped when absent): 1213 GPU
# nodes, 6,212,000 milli, and nothing placed, the simulator's 866,232.55
# fragmented milli.
. "$(dirname "$0")/../lib.sh"
dump() { sqlite3 "$1" .dump | sha256sum | cut -d' ' -f1; }
# json FILE PERL-EXPR: evaluate EXPR with $d = the decoded report
json() { perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>); print eval($ARGV[1]) // "undef"; die $@ if $@' "$1" "$2"; }
# gpu_text FILE: the GPU sections of a text report, without their notes
# qs DB SQL: one value, without the CSV quotes a comma in it brings
qs() { q "$1" "$2" | sed 's/^"//; s/"$//'; }
gpu_text() { sed -n '/^GPU fragmentation$/,$p' "$1" | awk '!/^\(.*\)$/ || $0 == "(none)"'; }

# node-a: 2 P100 GPUs, 32 cores; node-b: 4 V100M32 GPUs, 64 cores.  The GPU
# pods name their model (gpu_spec: required node affinity), so each goes to
# one node whatever the scores: the three shares (500, 700, 300 milli, in
# that file order, the queue's) to node-a, the whole 2-GPU pod to node-b;
# the cpu-only pod goes where the scores put it.
cat >"$T/nodes.csv" <<'CSV'
sn,cpu_milli,memory_mib,gpu,model
node-a,32000,65536,2,P100
node-b,64000,131072,4,V100M32
CSV
cat >"$T/pods.csv" <<'CSV'
name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
share-500,4000,8192,1,500,P100,LS,Running,0,100,0
share-700,4000,8192,1,700,P100,LS,Running,1,100,1
share-300,4000,8192,1,300,P100,LS,Running,2,100,2
whole-2,8000,16384,2,1000,V100M32,LS,Running,3,100,3
cpu-only,2000,4096,0,0,,LS,Running,4,100,4
CSV
db="$T/g.db"
run "$KPLAN" import "$db" "$T/nodes.csv" "$T/pods.csv"
is "$rc" 0 "import the two-node openb cluster"
run "$KPLAN" plan -q "$db"
is "$rc" 0 "plan it"
is "$(qs "$db" "SELECT group_concat(p.name || ' ' || pl.action || ' ' || n.name, ', ') FROM placement pl JOIN pod p ON p.id = pl.pod_id
	LEFT JOIN node n ON n.id = pl.node_id WHERE pl.run_id = 1 AND p.name <> 'cpu-only' ORDER BY pl.seq")" \
	"share-500 bind node-a, share-700 bind node-a, share-300 bind node-a, whole-2 bind node-b" \
	"the GPU pods are placed on the nodes of their model"
is "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'bind'")" 5 "all five pods placed"

# ---- the table ----
is "$(q "$db" "SELECT count(*) || ' ' || sum(gpus) || ' ' || sum(milli) FROM gpu_fragmentation WHERE run_id = 1")" "2 6 6000" \
	"gpu_fragmentation: one row per GPU node, 6 GPUs, 6000 milli"
# the GPU milli of each pod, from the CSV above (num_gpu x gpu_milli), of the pods the run placed
placed_milli=$(q "$db" "WITH g(name, m) AS (VALUES ('share-500', 500), ('share-700', 700), ('share-300', 300), ('whole-2', 2000), ('cpu-only', 0))
	SELECT sum(g.m) FROM g JOIN pod p ON p.name = g.name JOIN placement pl ON pl.pod_id = p.id
	WHERE pl.run_id = 1 AND pl.action IN ('keep', 'bind', 'move')")
is "$placed_milli" 3500 "the placed pods ask 3500 GPU milli"
is "$(q "$db" "SELECT sum(free_milli) FROM gpu_fragmentation WHERE run_id = 1")" "$((6000 - placed_milli))" \
	"sum of free_milli = total milli - the placed pods' GPU milli"
# Best fit (the openb class): a share goes to the GPU with the least free
# milli that fits, the lowest index on ties.  node-a: share-500 finds
# [1000,1000], a tie, so gpu-0 -> [500,1000]; share-700 fits gpu-1 only ->
# [500,300]; share-300 fits both, gpu-1 has less free -> [500,0].  (First
# fit, or kube's order, would put it on gpu-0: [200,300].)  The whole 2-GPU
# pod takes node-b's two lowest GPUs -> [0,0,1000,1000].
is "$(qs "$db" "SELECT group_concat(n.name || ' ' || f.free_list, '; ') FROM gpu_fragmentation f JOIN node n ON n.id = f.node_id
	WHERE f.run_id = 1 ORDER BY n.name")" "node-a [500,0]; node-b [0,0,1000,1000]" \
	"free_list: share-300 went to the fuller GPU (best fit), share-500 to gpu-0 (tie: lowest index)"
is "$(qs "$db" "SELECT group_concat(p.name || ' ' || a.pool || '/' || a.device, ', ') FROM dra_allocation a JOIN pod p ON p.id = a.pod_id
	WHERE a.run_id = 1 ORDER BY a.seq")" \
	"share-500 node-a/gpu-0, share-700 node-a/gpu-1, share-300 node-a/gpu-1, whole-2 node-b/gpu-0, whole-2 node-b/gpu-1" \
	"dra_allocation: the same devices"
is "$(q "$db" "SELECT group_concat(n.name || ' ' || f.free_milli, '; ') FROM gpu_fragmentation f JOIN node n ON n.id = f.node_id
	WHERE f.run_id = 1 AND f.free_milli = (SELECT sum(j.value) FROM json_each(f.free_list) j) ORDER BY n.name")" "node-a 500; node-b 2000" \
	"free_milli = the sum of free_list"
is "$(q "$db" "SELECT group_concat(n.name, ' ') FROM gpu_fragmentation f JOIN node n ON n.id = f.node_id
	JOIN node_resource r ON r.node_id = n.id AND r.resource = 'cpu'
	WHERE f.run_id = 1 AND f.cpu_left = r.allocatable - (SELECT COALESCE(sum(q.value), 0) FROM placement pl
		JOIN pod_request q ON q.pod_id = pl.pod_id AND q.resource = 'cpu' WHERE pl.run_id = 1 AND pl.node_id = n.id)
	ORDER BY n.name")" "node-a node-b" "cpu_left = allocatable cpu - the cpu of the pods placed there"

# The typical shapes: every pod is a shape of its own (count 1 of 5 pods);
# all five are needed to reach 95 %, so none is cut and each weighs 1/5.
is "$(q "$db" "SELECT group_concat(seq || ':' || cpu || '/' || gpus || 'x' || milli || '=' || weight, ' ') FROM gpu_typical_shape WHERE run_id = 1 ORDER BY seq")" \
	"1:8000/2x1000=0.2 2:4000/1x700=0.2 3:4000/1x500=0.2 4:4000/1x300=0.2 5:2000/0x0=0.2" \
	"gpu_typical_shape: five shapes of weight 0.2, count then cpu, milli descending"
# frag_milli by the spec's rules (frag.go GetNodePodFrag, NodeGpuShareFragAmount):
# per typical shape (weight 0.2) the node's free milli counts as fragmented
# all of it when the shape cannot use the node (cpu-only: XL/XR; another
# model: NoAccess; too few GPUs with enough free: Q1/Q2; enough GPUs but too
# little cpu: Q4), else (Q3) only the free milli on GPUs with less free than
# the shape's milli.
#
# node-a, free_list [500,0], free 500, cpu left 20000 (32000 - 3 x 4000):
#   8000/2x1000 (V100M32 only)   NoAccess            0.2 x 500 = 100
#   4000/1x700  (P100)           no GPU has 700: Q2  0.2 x 500 = 100
#   4000/1x500  (P100)           gpu-0 fits: Q3      0.2 x (GPUs < 500: 0) = 0
#   4000/1x300  (P100)           gpu-0 fits: Q3      0.2 x (GPUs < 300: 0) = 0
#   2000/cpu only                XL                  0.2 x 500 = 100
#   frag_milli = 100 + 100 + 0 + 0 + 100 = 300
# node-b, free_list [0,0,1000,1000], free 2000, cpu left >= 54000:
#   8000/2x1000 (V100M32)        gpu-2, gpu-3: Q3    0.2 x (GPUs < 1000: 0 + 0) = 0
#   the three P100 shares        NoAccess            3 x 0.2 x 2000 = 1200
#   2000/cpu only                XL                  0.2 x 2000 = 400
#   frag_milli = 0 + 1200 + 400 = 1600
is "$(q "$db" "SELECT group_concat(n.name || ' ' || f.frag_milli, '; ') FROM gpu_fragmentation f JOIN node n ON n.id = f.node_id
	WHERE f.run_id = 1 ORDER BY n.name")" "node-a 300.0; node-b 1600.0" "frag_milli worked out by hand: node-a 300, node-b 1600"

# ---- the report ----
before=$(dump "$db")
"$KPLAN" report --no-timing "$db" >"$T/g.txt"
is "$?" 0 "report: exit 0"
is "$(gpu_text "$T/g.txt")" "GPU fragmentation
-----------------
gpu_nodes        2
gpus             6
milli            6000
allocated_milli  3500
allocated_pct    58.3
free_milli       2500
frag_milli       1900
frag_pct         76
usable_milli     600
typical_shapes   5

GPU fragmentation: per pool
---------------------------
pool     pool label                       nodes  gpus  milli  allocated milli  allocated pct  free milli  frag milli  frag pct
-------  -------------------------------  -----  ----  -----  ---------------  -------------  ----------  ----------  --------
P100     alibabacloud.com/gpu-card-model      1     2   2000             1500          75.0%         500         300     60.0%
V100M32  alibabacloud.com/gpu-card-model      1     4   4000             2000          50.0%        2000        1600     80.0%

GPU fragmentation: the most fragmented nodes
--------------------------------------------
node    pool     gpus  milli  allocated milli  free milli  frag milli  frag pct  cpu left  free list
------  -------  ----  -----  ---------------  ----------  ----------  --------  --------  ---------------
node-b  V100M32     4   4000             2000        2000        1600     80.0%        54  [0,0,1000,1000]
node-a  P100        2   2000             1500         500         300     60.0%        20  [500,0]

GPU fragmentation: per node
---------------------------
node    pool     gpus  milli  allocated milli  free milli  frag milli  frag pct  cpu left  free list
------  -------  ----  -----  ---------------  ----------  ----------  --------  --------  ---------------
node-a  P100        2   2000             1500         500         300     60.0%        20  [500,0]
node-b  V100M32     4   4000             2000        2000        1600     80.0%        54  [0,0,1000,1000]

GPU fragmentation: typical pod shapes
-------------------------------------
seq  shape               cpu  gpus  milli  pods  weight  example
---  ------------------  ---  ----  -----  ----  ------  ---------------
  1  2 whole GPUs          8     2   1000     1     0.2  openb/whole-2
  2  700 milli of 1 GPU    4     1    700     1     0.2  openb/share-700
  3  500 milli of 1 GPU    4     1    500     1     0.2  openb/share-500
  4  300 milli of 1 GPU    4     1    300     1     0.2  openb/share-300
  5  cpu only              2     0      0     1     0.2  openb/cpu-only" \
	"text: the five GPU sections, worked out by hand (allocated 3500 of 6000 = 58.3 %, fragmented 1900 of 2500 free = 76 %)"
like "$(sed -n '/^Devices: claims left unallocated$/,/^GPU fragmentation$/p' "$T/g.txt")" "GPU fragmentation" \
	"text: the GPU sections come after the devices sections"

# the numbers against the tables, not the report's SQL
"$KPLAN" report --format json -o "$T/g.json" -q "$db"
is "$(json "$T/g.json" 'join " ", map { $d->{gpu}{$_} } qw(gpu_nodes gpus milli allocated_milli free_milli frag_milli typical_shapes)')" \
	"$(q "$db" "SELECT count(*) || ' ' || sum(gpus) || ' ' || sum(milli) || ' ' || sum(milli - free_milli) || ' ' || sum(free_milli) || ' ' ||
		CAST(sum(frag_milli) AS INTEGER) || ' ' || (SELECT count(*) FROM gpu_typical_shape WHERE run_id = 1)
		FROM gpu_fragmentation WHERE run_id = 1")" "json: gpu = the sums of gpu_fragmentation"
is "$(json "$T/g.json" 'my $g = $d->{gpu}; join " ", $g->{allocated_pct}, $g->{frag_pct}, $g->{usable_milli}')" \
	"$(q "$db" "SELECT printf('%g %g %g', round(100.0 * sum(milli - free_milli) / sum(milli), 1), round(100.0 * sum(frag_milli) / sum(free_milli), 1),
		sum(free_milli) - sum(frag_milli)) FROM gpu_fragmentation WHERE run_id = 1")" \
	"json: allocated_pct, frag_pct (of free) and usable_milli from the same sums"
is "$(json "$T/g.json" 'join "; ", map { join " ", @$_{qw(pool nodes gpus milli allocated_milli free_milli frag_milli)} } @{$d->{gpu_pools}}')" \
	"$(q "$db" "SELECT group_concat(x, '; ') FROM (SELECT l.value || ' ' || count(*) || ' ' || sum(f.gpus) || ' ' || sum(f.milli) || ' ' ||
		sum(f.milli - f.free_milli) || ' ' || sum(f.free_milli) || ' ' || CAST(sum(f.frag_milli) AS INTEGER) AS x
		FROM gpu_fragmentation f JOIN node_label l ON l.node_id = f.node_id AND l.key = 'alibabacloud.com/gpu-card-model'
		WHERE f.run_id = 1 GROUP BY l.value ORDER BY l.value)")" "json: gpu_pools = the sums per GPU model label"
is "$(json "$T/g.json" 'my $s = 0; $s += $_->{frag_milli} for @{$d->{gpu_pools}}; my $n = 0; $n += $_->{free_milli} for @{$d->{gpu_pools}};
	($s == $d->{gpu}{frag_milli} && $n == $d->{gpu}{free_milli}) ? "ok" : "$s $n"')" ok "json: the pools add up to the summary"
is "$(json "$T/g.json" 'join "; ", map { "$_->{node} $_->{frag_milli} $_->{free_list}" } @{$d->{gpu_fragmented}}')" \
	"$(qs "$db" "SELECT group_concat(n.name || ' ' || CAST(f.frag_milli AS INTEGER) || ' ' || f.free_list, '; ') FROM
		(SELECT * FROM gpu_fragmentation WHERE run_id = 1 AND frag_milli > 0 ORDER BY frag_milli DESC LIMIT 10) f JOIN node n ON n.id = f.node_id")" \
	"json: gpu_fragmented = the rows with the most frag_milli, with their free_list"
is "$(json "$T/g.json" 'join "; ", map { "$_->{node} $_->{gpus} $_->{free_milli} $_->{cpu_left} $_->{free_list}" } @{$d->{gpu_nodes}}')" \
	"$(qs "$db" "SELECT group_concat(x, '; ') FROM (SELECT n.name || ' ' || f.gpus || ' ' || f.free_milli || ' ' || f.cpu_left || ' ' || f.free_list AS x
		FROM gpu_fragmentation f JOIN node n ON n.id = f.node_id WHERE f.run_id = 1 ORDER BY n.name)")" "json: gpu_nodes = every row"
is "$(json "$T/g.json" 'join "; ", map { "$_->{seq} $_->{cpu} $_->{gpus} $_->{milli} $_->{pods} $_->{weight} $_->{example}" } @{$d->{gpu_shapes}}')" \
	"$(q "$db" "SELECT group_concat(seq || ' ' || cpu || ' ' || gpus || ' ' || milli || ' ' || pods || ' ' || weight || ' ' || example, '; ')
		FROM (SELECT * FROM gpu_typical_shape WHERE run_id = 1 ORDER BY seq)")" "json: gpu_shapes = gpu_typical_shape"
is "$(grep -o '"gpu[a-z_]*": *[[{]' "$T/g.json" | tr -d ' [{' | tr '\n' ' ')" \
	'"gpu": "gpu_pools": "gpu_fragmented": "gpu_nodes": "gpu_shapes": ' "json: the five GPU keys, in order"
# csv, markdown, html
"$KPLAN" report --no-timing --format csv "$db" >"$T/g.csv"
is "$(grep -c '^gpu,' "$T/g.csv") $(grep -c '^gpu_pools,' "$T/g.csv") $(grep -c '^gpu_fragmented,' "$T/g.csv") $(grep -c '^gpu_nodes,' "$T/g.csv") $(grep -c '^gpu_shapes,' "$T/g.csv")" \
	"10 2 2 2 5" "csv: gpu 10 keys, gpu_pools 2 rows, gpu_fragmented 2, gpu_nodes 2, gpu_shapes 5"
is "$(grep '^gpu_nodes,node-a,' "$T/g.csv")" 'gpu_nodes,node-a,P100,2,2000,1500,500,300,60,20000,"[500,0]"' "csv: a node's row, raw"
"$KPLAN" report --no-timing --format markdown "$db" >"$T/g.md"
like "$(cat "$T/g.md")" "| node-b | V100M32 | 4 | 4000 | 2000 | 2000 | 1600 | 80.0% | 54 | \\[0,0,1000,1000\\] |" "markdown: a node's row"
like "$(cat "$T/g.md")" "## GPU fragmentation: typical pod shapes" "markdown: the shapes' heading"
"$KPLAN" report --no-timing --format html "$db" >"$T/g.html"
is "$(grep -o '<section id="gpu[a-z_]*">' "$T/g.html" | tr '\n' ' ')" \
	'<section id="gpu"> <section id="gpu_pools"> <section id="gpu_fragmented"> <section id="gpu_nodes"> <section id="gpu_shapes"> ' \
	"html: a section per GPU table"
like "$(cat "$T/g.html")" '<a href="#gpu_fragmented">GPU fragmentation: the most fragmented nodes</a>' "html: in the navigation"
is "$(grep -c '<svg id="chart-gpu"' "$T/g.html") $(grep -o '<rect class="gnode" data-node="[a-z-]*"' "$T/g.html" | tr '\n' ' ')" \
	'1 <rect class="gnode" data-node="node-b" <rect class="gnode" data-node="node-a" ' \
	"html: chart-gpu, one box per node, the most fragmented first"
is "$(grep -o '<path class="area [a-z]*" data-n="[0-9]*"' "$T/g.html" | tr '\n' ' ')" \
	'<path class="area milli" data-n="2" <path class="area free" data-n="2" <path class="area frag" data-n="2" ' \
	"html: chart-gpu's three areas over the 2 nodes"
like "$(cat "$T/g.html")" "node-a: 2 GPUs, free 500 of 2000 milli, fragmented 300.00; free per GPU [500,0]" "html: a node's numbers in its box"
like "$(cat "$T/g.html")" "In all: 2500 milli free, 1900 fragmented (76% of the free milli" "html: the caption's totals are the gpu section's"
is "$(dump "$db")" "$before" "the database is unchanged by the reports"

# ---- a what-if run adding GPU nodes: their rows named as run_node names them ----
cat >"$T/tmpl.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata:
  name: tmpl
  labels: {alibabacloud.com/gpu-card-model: P100}
status:
  allocatable: {cpu: "32", memory: 64Gi, pods: "110"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: tmpl-gpus}
spec:
  driver: gpu.openb.kplan.io
  pool: {name: tmpl, generation: 1, resourceSliceCount: 1}
  nodeName: tmpl
  devices:
  - {name: gpu-0, allowMultipleAllocations: true, capacity: {milli: {value: "1000"}}}
  - {name: gpu-1, allowMultipleAllocations: true, capacity: {milli: {value: "1000"}}}
YAML
cp "$db" "$T/w.db"
"$KPLAN" plan -q --add-nodes "$T/tmpl.yaml:2" "$T/w.db" 2>/dev/null || fail "plan with two added GPU nodes"
"$KPLAN" report --format json -o "$T/w.json" -q "$T/w.db" || fail "report of the what-if run"
is "$(json "$T/w.json" 'join " ", map { "$_->{node}/$_->{gpus}" } @{$d->{gpu_nodes}}')" "node-a/2 node-b/4 tmpl-whatif-1/2 tmpl-whatif-2/2" \
	"what-if: the added nodes' rows carry their names (run_node)"
is "$(json "$T/w.json" '$d->{gpu}{milli} . " " . $d->{gpu}{free_milli}')" "$(q "$T/w.db" "SELECT sum(milli) || ' ' || sum(free_milli) FROM gpu_fragmentation WHERE run_id = 2")" \
	"what-if: the sums count the added nodes"

# ---- a database without the GPU tables (made before them): no GPU section ----
cp "$db" "$T/old.db"
sqlite3 "$T/old.db" "DROP TABLE gpu_fragmentation; DROP TABLE gpu_typical_shape" || fail "drop the GPU tables"
for f in text csv json html; do
	run "$KPLAN" report --no-timing --format $f "$T/old.db"
	is "$rc:$(printf %s "$out" | grep -c 'GPU fragmentation\|"gpu[a-z_]*":\|^gpu[a-z_]*,')" "0:0" "without the GPU tables: $f exits 0, no GPU section"
done
run "$KPLAN" report --no-timing "$T/old.db"
is "$out" "$(sed '/^GPU fragmentation$/,$d' "$T/g.txt" | sed '$d')" "without the GPU tables: the text report up to the GPU sections"

# ---- a cluster without GPUs: no GPU section ----
cat >"$T/plain.csv" <<'CSV'
sn,cpu_milli,memory_mib,gpu,model
cpu-1,32000,65536,0,
CSV
pdb="$T/plain.db"
"$KPLAN" import -q "$pdb" "$T/plain.csv" "$T/pods.csv" || fail "import the cluster without GPUs"
"$KPLAN" plan -q "$pdb" 2>/dev/null || fail "plan the cluster without GPUs"
is "$(q "$pdb" "SELECT count(*) FROM gpu_fragmentation")" 0 "without GPUs: no gpu_fragmentation row"
for f in text markdown csv json html; do
	"$KPLAN" report --no-timing --format $f "$pdb" >"$T/plain.$f" || fail "report --format $f without GPUs"
done
is "$(cd "$T" && grep -l 'GPU fragmentation\|"gpu[a-z_]*":\|^gpu[a-z_]*,\|chart-gpu"' plain.text plain.markdown plain.csv plain.json plain.html | wc -l)" 0 \
	"without GPUs: no GPU section in any format"

# ---- the openb default list: 1213 GPU nodes, 6212 GPUs ----
D=$KP_SHARED_DATA/openb
if [ ! -d "$D" ]; then
	skip "shared data absent ($D): no openb GPU report" 6
	done_testing
fi
ob="$T/openb.db"
(cd "$D" && "$KPLAN" import -q "$ob" openb_node_list_gpu_node.csv openb_pod_list_default.csv) || fail "openb import"
"$KPLAN" plan -q "$ob" 2>/dev/null || fail "openb plan"
"$KPLAN" report --format json -o "$T/ob.json" -q "$ob" || fail "openb report"
is "$(json "$T/ob.json" 'join " ", map { $d->{gpu}{$_} } qw(gpu_nodes gpus milli)')" "1213 6212 6212000" \
	"openb: 1213 GPU nodes, 6212 GPUs, 6212000 milli"
# the placed pods' GPU milli, read off the CSV (num_gpu x gpu_milli)
q "$ob" "SELECT p.name FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE pl.run_id = 1 AND pl.action IN ('keep', 'bind', 'move')" >"$T/ob.placed"
placed=$(perl -e 'open my $p, "<", $ARGV[0] or die; my %on = map { chomp; ($_, 1) } <$p>; open my $c, "<", $ARGV[1] or die; <$c>;
	my $s = 0; while (<$c>) { my @f = split /,/; $s += $f[3] * $f[4] if $on{$f[0]} } print $s' "$T/ob.placed" "$D/openb_pod_list_default.csv")
is "$(json "$T/ob.json" '$d->{gpu}{free_milli} . " " . $d->{gpu}{allocated_milli}')" "$((6212000 - placed)) $placed" \
	"openb: free milli = 6212000 - the placed pods' GPU milli ($placed, from the CSV)"
is "$(json "$T/ob.json" '$d->{gpu}{frag_milli}')" "$(q "$ob" "SELECT round(sum(frag_milli), 2) FROM gpu_fragmentation WHERE run_id = 1")" \
	"openb: frag_milli = the sum of the table's"
is "$(json "$T/ob.json" 'my ($n, $m, $f) = (0, 0, 0); for (@{$d->{gpu_pools}}) { $n += $_->{nodes}; $m += $_->{milli}; $f += $_->{free_milli} }
	"$n $m $f"')" "1213 6212000 $((6212000 - placed))" "openb: the pools (one per GPU model) add up to the summary"
is "$(json "$T/ob.json" 'my @r = @{$d->{gpu_fragmented}}; my $ok = 1; $ok &&= $r[$_ - 1]{frag_milli} >= $r[$_]{frag_milli} for 1 .. $#r;
	scalar(@r) . " " . ($ok ? "descending" : "unordered") . " " . ($r[0]{frag_milli} == (sort { $b <=> $a } map { $_->{frag_milli} } @{$d->{gpu_nodes}})[0] ? "max" : "not max")')" \
	"10 descending max" "openb: the 10 most fragmented nodes, the most first"
# nothing placed (every GPU node cordoned): the typical shapes are the same
# pods', the state the empty cluster's; 866232.55 is what a transcription of
# the simulator's frag.go gives for it (docs/gpu-devices.md)
"$KPLAN" plan -q --cordon 'alibabacloud.com/gpu-count!=0' "$ob" 2>/dev/null || fail "openb plan with every node cordoned"
"$KPLAN" report --run 2 --format json -o "$T/ob2.json" -q "$ob" || fail "openb report of run 2"
is "$(json "$T/ob2.json" 'join " ", map { $d->{gpu}{$_} } qw(allocated_milli free_milli frag_milli frag_pct typical_shapes)')" \
	"0 6212000 866232.55 13.9 35" "openb, nothing placed: 866232.55 of 6212000 free milli fragmented, 35 typical shapes"
done_testing
