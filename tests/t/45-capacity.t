#!/usr/bin/env bash
# 45-capacity.t — `kplan capacity` on small hand-made clusters
# (tests/data/capacity) with the answers worked out by hand: how many more
# replicas fit (--pod, --workload), per node and pool, why the next one does
# not; --nodes-needed with its lower bound and a template that cannot help;
# --survive node and zone; the capacity tables and the report section; errors
# and exit codes; the imported tables and run/placement untouched; and on a
# generated cluster, that --workload agrees with `kplan plan --scale`.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/capacity"
db="$T/c.db"
"$KPLAN" import -q "$db" "$D/cluster.yaml" || fail "import cluster.yaml"
q1() { q "$@" | sed -e 's/^"\(.*\)"$/\1/' -e 's/""/"/g'; }
INPUTS="meta import_batch namespace% node node_resource node_label node_taint node_image pod_class class% pod pod_label
	priority_class pdb service workload scheduler_config run placement pod_failure eviction run_warning plan_quality"
inputs() { sqlite3 "$1" ".dump $INPUTS"; }
inputs "$db" >"$T/inputs.sql"
same_inputs() {
	inputs "${2:-$db}" >"$T/now.sql"
	cmp -s "${3:-$T/inputs.sql}" "$T/now.sql"
	ok $? "$1: imported tables and run/placement unchanged"
}
last() { q1 "$db" "SELECT $1 FROM capacity_run ORDER BY id DESC LIMIT 1"; }
lastid() { q "$db" "SELECT max(id) FROM capacity_run"; }

# Bound: 3 cpu on n1 and n2, 1 cpu on n3; n4 is tainted dedicated=gpu.
# Free cpu: n1 1, n2 1, n3 3 (n4 4, for nobody): five 1-cpu pods fit.
GPU="1 node(s) had untolerated taint(s)"   # kube 1.35+ (the default 1.37): no taint named
run "$KPLAN" capacity "$db" --pod "$D/pod-1cpu.yaml"
is "$rc" 0 "--pod: exit 0"
like "$out" "5 more replicas of $D/pod-1cpu.yaml (requests: cpu 1, memory 1Gi) fit" "--pod: 5 fit"
like "$out" "the next one does not fit: 0/4 nodes are available: $GPU, 3 Insufficient cpu." "--pod: the 6th's reason"
like "$out" "10 tried (the bound from free capacity, plus 1)" "--pod: default --max = 1+1+3+4 + 1"
id=$(lastid)
is "$(last "answer || ' ' || bound || ' ' || status || ' ' || kind")" "5 10 limited pod" "capacity_run row"
is "$(q1 "$db" "SELECT group_concat(node || ':' || pool || ':' || replicas, ' ') FROM (SELECT * FROM capacity_node WHERE capacity_id = $id ORDER BY node)")" \
	"n1:m5.xlarge:1 n2:m5.xlarge:1 n3:c5.xlarge:3" "replicas per node"
is "$(q1 "$db" "SELECT group_concat(pool || ':' || nodes || ':' || nodes_used || ':' || replicas, ' ') FROM (SELECT * FROM capacity_pool WHERE capacity_id = $id ORDER BY pool)")" \
	"c5.xlarge:1:1:3 m5.xlarge:2:2:2 p3.2xlarge:1:0:0" "replicas per pool (instance-type)"
# the quality certificate of that plan (README "Plan quality"): m5 holds b1, b2
# (3 cpu each) and one replica each: 8 cpu on 4-cpu nodes -> bound 2; n3 holds
# b3 and three replicas: 4 cpu -> 1.  Every node's cpu is full, so the free
# memory (16Gi less 1Gi per pod) is stranded.
qual() { # qual DB ID: pool:nodes:used:pods:bound:bound_by:gap, pool order
	q1 "$1" "SELECT group_concat(pool || ':' || nodes || ':' || nodes_used || ':' || pods || ':' || bound || ':' ||
	         COALESCE(bound_by, '-') || ':' || CASE WHEN gap_pct IS NULL THEN '-' ELSE printf('%.1f', gap_pct) END, ' ')
	         FROM (SELECT * FROM capacity_quality WHERE capacity_id = $2 ORDER BY pool)"
}
is "$(qual "$db" "$id")" "c5.xlarge:1:1:4:1:requests:cpu:0.0 m5.xlarge:2:2:4:2:requests:cpu:0.0 p3.2xlarge:1:0:0:0:-:-" \
	"--pod: capacity_quality of the plan with the 5 replicas"
is "$(q1 "$db" "SELECT group_concat(pool || ':' || resource || ':' || stranded || ':' || stranded_nodes || ':' || COALESCE(exhausted_by, '-'), ' ')
                FROM (SELECT * FROM capacity_stranded WHERE capacity_id = $id ORDER BY pool, resource)")" \
	"c5.xlarge:cpu:0:0:- c5.xlarge:memory:12884901888:1:cpu m5.xlarge:cpu:0:0:- m5.xlarge:memory:30064771072:2:cpu" \
	"--pod: capacity_stranded: 12Gi on n3, 14Gi on n1 and n2, cpu exhausted"
like "$out" "quality of the plan with the 5 replicas placed (pools by label node.kubernetes.io/instance-type):" \
	"--pod: the summary names the plan certified"
like "$out" "m5.xlarge                           2          2      4      2 requests:cpu                 0.0 %" \
	"--pod: the summary's pool line"
like "$out" "  m5.xlarge: memory 28Gi of 32Gi (87.5 %) on 2 of 2 used nodes; exhausted: cpu" "--pod: the summary's stranded line"
same_inputs "--pod"

run "$KPLAN" capacity "$db" --pod "$D/pod-1cpu.yaml" --pool-label pool --format json
is "$rc" 0 "--format json: exit 0"
like "$out" '"fits":5,"tried":10' "json: fits and tried"
like "$out" '{"pool":"blue","nodes":2,"nodes_used":2,"replicas":2}' "json: --pool-label pool"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pools"][2]["replicas"])' 2>&1)" 3 "json parses"
is "$(printf '%s' "$out" | python3 -c 'import json,sys
q = json.load(sys.stdin)["quality"]
print(q["plan"], q["pool_label"], " ".join("%s:%d:%d:%s" % (p["pool"], p["nodes_used"], p["bound"], p["gap_pct"]) for p in q["pools"]),
      len(q["stranded"]))' 2>&1)" "the plan with the 5 replicas placed pool blue:2:2:0.0 gpu:0:0:None green:1:1:0.0 4" \
	"json: the certificate, pools by --pool-label"
is "$(qual "$db" "$(lastid)")" "blue:2:2:4:2:requests:cpu:0.0 gpu:1:0:0:0:-:- green:1:1:4:1:requests:cpu:0.0" \
	"--pool-label pool: capacity_quality by that label"

run "$KPLAN" capacity "$db" --pod "$D/pod-1cpu.yaml" --max 3
like "$out" "3 more replicas" "--max 3: 3 fit"
like "$out" "--max reached" "--max 3: says the cap was reached"
is "$(last status)" "max-reached" "--max reached: status"

# nodeSelector c5.xlarge: only n3, 3 cpu free
run "$KPLAN" capacity "$db" --pod "$D/pod-c5.yaml"
like "$out" "3 more replicas" "nodeSelector: 3 fit on the one c5 node"
like "$out" "0/4 nodes are available: 1 Insufficient cpu, $GPU, 2 node(s) didn't match Pod's node affinity/selector." "nodeSelector: reason"
is "$(q1 "$db" "SELECT group_concat(node || ':' || replicas) FROM capacity_node WHERE capacity_id = $(lastid)")" "n3:3" "nodeSelector: all on n3"

# 8 cpu: fits nowhere
run "$KPLAN" capacity "$db" --pod "$D/pod-huge.yaml"
like "$out" "0 more replicas" "8-cpu pod: 0 fit"
like "$out" "the next one does not fit: 0/4 nodes are available: $GPU, 3 Insufficient cpu." "8-cpu pod: why"
is "$(last "answer || ' ' || bound")" "0 1" "8-cpu pod: answer 0, bound 1 (no node has 8 cpu free)"

# a Deployment's template (500m): n1 2, n2 2, n3 6
run "$KPLAN" capacity "$db" --pod "$D/deploy-500m.yaml"
like "$out" "10 more replicas" "Deployment template: 10 half-cpu replicas fit"
is "$(q1 "$db" "SELECT group_concat(node || ':' || replicas, ' ') FROM (SELECT * FROM capacity_node WHERE capacity_id = $(lastid) ORDER BY node)")" \
	"n1:2 n2:2 n3:6" "Deployment template: per node"
same_inputs "--pod, four questions"

# --survive: losing any one node is fine, losing zone a (n1, n2: 6 cpu of pods) is not
run "$KPLAN" capacity "$db" --survive node
is "$rc" 0 "--survive node: exit 0"
like "$out" "survives: every pod placed in the baseline is placed again after losing any one of them" "--survive node: survives"
is "$(last "answer || ' ' || bound || ' ' || status")" "1 4 survives" "--survive node: row"
id=$(lastid)
is "$(q1 "$db" "SELECT group_concat(domain || ':' || pods_displaced || ':' || pods_lost || ':' || survives, ' ') FROM (SELECT * FROM capacity_domain WHERE capacity_id = $id ORDER BY domain)")" \
	"n1:1:0:1 n2:1:0:1 n3:1:0:1 n4:0:0:1" "--survive node: per node"
is "$(q1 "$db" "SELECT json_extract(result, '$.quality.plan') = 'the plan without node ' || json_extract(result, '$.worst') || ' (the worst)'
                AND reason LIKE 'node ' || json_extract(result, '$.worst') || ':%' FROM capacity_run WHERE id = $id")" 1 \
	"--survive node: the certificate is of the worst node's plan"
is "$(q "$db" "SELECT allocatable || ' ' || free FROM capacity_headroom WHERE capacity_id = $id AND domain = 'n1' AND resource = 'cpu'")" \
	"12000 5000" "--survive node: headroom without n1: 12 cpu, 5 free (9 free - b1's 3 + n1's 1 lost... = 5)"
run "$KPLAN" capacity "$db" --survive zone
like "$out" "does not survive" "--survive zone: does not survive"
like "$out" "worst: zone a: 1 pod placed now loses its node (2 displaced, 0 gain one); headroom cpu 4 of 8" "--survive zone: the worst"
like "$out" "  loses default/b2 (priority 0): 0/2 nodes are available: 1 Insufficient cpu" "--survive zone: names the pod that loses its node"
is "$(q1 "$db" "SELECT group_concat(domain || ':' || change || ':' || namespace || '/' || pod || ':' || priority, ' ') FROM capacity_pod WHERE capacity_id = $(lastid)")" \
	"a:loses:default/b2:0" "--survive zone: capacity_pod"
is "$(last "answer || ' ' || status")" "0 fails" "--survive zone: row"
is "$(q1 "$db" "SELECT group_concat(domain || ':' || nodes || ':' || pods_lost || ':' || survives, ' ') FROM (SELECT * FROM capacity_domain WHERE capacity_id = $(lastid) ORDER BY domain)")" \
	"a:2:1:0 b:2:0:1" "--survive zone: per zone"
# without zone a: n3 holds b3 and b1 (or b2); n4 is tainted
is "$(qual "$db" "$(lastid)")" "c5.xlarge:1:1:2:1:requests:cpu:0.0 p3.2xlarge:1:0:0:0:-:-" \
	"--survive zone: the certificate of the plan without zone a"
like "$out" "quality of the plan without zone a (the worst)" "--survive zone: the summary names the plan"
run "$KPLAN" capacity "$db" --survive node --limit 2
like "$out" "2 of 4 nodes evaluated (the most loaded, --limit)" "--limit 2"
is "$(q1 "$db" "SELECT group_concat(domain, ' ') FROM (SELECT * FROM capacity_domain WHERE capacity_id = $(lastid) ORDER BY domain)")" \
	"n1 n2" "--limit 2: the two most loaded nodes"
same_inputs "--survive"

# pending: shop/web, six 2-cpu replicas: one fits (n3), five do not
pdb="$T/p.db"
"$KPLAN" import -q "$pdb" "$D/cluster.yaml" "$D/pending.yaml" || fail "import pending"
inputs "$pdb" >"$T/pinputs.sql"
run "$KPLAN" capacity "$pdb" --workload shop/web
like "$out" "0 more replicas of shop/web (requests: cpu 2, memory 1Gi) fit after the pending pods (5 of them unschedulable)" "--workload: none after the pending ones"
# template 4 cpu: 2 replicas each; 5 left -> 3 nodes; bound ceil((12 - 9) / 4) = 1
run "$KPLAN" capacity "$pdb" --nodes-needed --node-template "$D/node-4cpu.yaml"
is "$rc" 0 "--nodes-needed: exit 0"
like "$out" "3 nodes like $D/node-4cpu.yaml needed for the 5 unschedulable pending pods (lower bound from total requests: 1, by cpu); checked: with 2, 1 pod stays unschedulable" "--nodes-needed: 3, bound 1, K-1 checked"
like "$out" "cpu: pending 12, free 9, per node 4 -> 1" "--nodes-needed: the bound's arithmetic"
is "$(q1 "$pdb" "SELECT answer || ' ' || bound || ' ' || status FROM capacity_run ORDER BY id DESC LIMIT 1")" "3 1 found" "--nodes-needed: row"
is "$(q1 "$pdb" "SELECT group_concat(nodes || ':' || unschedulable || ':' || fits, ' ') FROM (SELECT * FROM capacity_search WHERE capacity_id = (SELECT max(id) FROM capacity_run) ORDER BY step)")" \
	"0:5:0 1:3:0 5:0:1 2:1:0 4:0:1 3:0:1" "--nodes-needed: the counts planned"
# with 3 template nodes (m5.xlarge): n1, n2 keep b1, b2; the five web pods go
# 2, 2, 1 on the new nodes: 7 pods, 16 cpu -> bound 4, 5 used: gap 25 %
is "$(qual "$pdb" "$(q "$pdb" "SELECT max(id) FROM capacity_run")")" \
	"c5.xlarge:1:1:2:1:requests:cpu:0.0 m5.xlarge:5:5:7:4:requests:cpu:25.0 p3.2xlarge:1:0:0:0:-:-" \
	"--nodes-needed: the certificate of the plan with the 3 nodes found (not of K - 1, planned last)"
like "$out" "quality of the plan with 3 nodes like $D/node-4cpu.yaml added" "--nodes-needed: the summary names the plan"
like "$out" "  m5.xlarge: memory 58Gi of 80Gi (72.5 %) on 4 of 5 used nodes; exhausted: cpu" \
	"--nodes-needed: stranded memory on the four cpu-full nodes"
run "$KPLAN" capacity "$pdb" --nodes-needed --node-template "$D/node-tainted.yaml"
is "$rc" 0 "a template that cannot help: exit 0"
like "$out" "0 nodes like $D/node-tainted.yaml needed: every pending pod that can fit on one fits already" \
	"a template that cannot help: always a number (0: the pods it cannot take are left out)"
like "$out" "5 pending pods can never fit on nodes like $D/node-tainted.yaml: not even an empty one (only its DaemonSet pods) passes their taints" \
	"never-fit: proven on an empty node, not inferred from a crowded plan; listed"
like "$out" "  shop/web-76b5c8f95-rzbq4: 0/5 nodes are available: 2 node(s) had untolerated taint(s)" "never-fit: each pod and why"
is "$(q1 "$pdb" "SELECT status || ' ' || COALESCE(answer, 'null') || ' ' || (SELECT count(*) FROM capacity_unfit u WHERE u.capacity_id = r.id) FROM capacity_run r ORDER BY id DESC LIMIT 1")" \
	"found 0 5" "never-fit: row and the pods"
like "$out" "quality of the plan of the cluster as it is" "never-fit: the certificate of the plan as it is (0 nodes)"
# one added node per unschedulable pod is not enough when the added nodes also
# take pods that fitted before (crowded.yaml): big fits an empty 4-cpu node, so
# it is no never-fit; the search goes on past 1 node (it used to say never-fit)
cdb="$T/crowded.db"
"$KPLAN" import -q "$cdb" "$D/crowded.yaml" || fail "import crowded.yaml"
run "$KPLAN" capacity "$cdb" --nodes-needed --node-template "$D/node-4cpu.yaml"
like "$out" "4 nodes like $D/node-4cpu.yaml needed for the 1 unschedulable pending pod (lower bound from total requests: 1, by cpu); checked: with 3, 1 pod stays unschedulable" \
	"crowded: 4 nodes, though one per unschedulable pod is 1"
is "$(q1 "$cdb" "SELECT group_concat(nodes || ':' || unschedulable, ' ') FROM (SELECT * FROM capacity_search WHERE capacity_id = 1 ORDER BY step)")" \
	"0:1 1:1 2:1 4:0 3:1" "crowded: doubling past the one-per-pod count, then the binary search"
"$KPLAN" plan -q --no-preemption --add-nodes "$D/node-4cpu.yaml:4" "$cdb"
is "$(q "$cdb" "SELECT count(*) FROM plan WHERE action = 'unschedulable'")" 0 "crowded: plan --add-nodes 4: every pod placed"
"$KPLAN" plan -q --no-preemption --add-nodes "$D/node-4cpu.yaml:3" "$cdb"
is "$(q "$cdb" "SELECT group_concat(pod) FROM plan WHERE action = 'unschedulable'")" big "crowded: plan --add-nodes 3: big left out"
run "$KPLAN" capacity "$cdb" --nodes-needed --node-template "$D/node-4cpu.yaml" --max-nodes 2
like "$out" "not found: with 2 nodes like $D/node-4cpu.yaml (--max-nodes) pods are still unschedulable" "crowded, --max-nodes 2: not found"
like "$out" "with 2 added, 1 pod is left out; an empty node like this passes its taints, nodeSelector and node affinity and has room for its requests" \
	"crowded, --max-nodes 2: says why more nodes would help"
like "$out" "  shop/big: 0/3 nodes are available: 3 Insufficient cpu." "crowded, --max-nodes 2: the pod left out"
same_inputs "--nodes-needed, --workload" "$pdb" "$T/pinputs.sql"

# ---- issue 14: survive per pod (tests/data/capacity/zones.yaml) ----
# Losing zone a (the most loaded, --limit 1) leaves the API replica api-1 (no
# host without an API replica) and the GPU trainer (no other GPU) without a
# node, while the two pending report pods now fit (their spread no longer
# counts zone a): as many pods without a node as before, which the count of
# unschedulable pods called "survives".
zdb="$T/zones.db"
"$KPLAN" import -q "$zdb" "$D/zones.yaml" || fail "import zones.yaml"
zinputs=$(sqlite3 "$zdb" ".dump $INPUTS" | sha256sum)
run "$KPLAN" capacity "$zdb" --survive zone --limit 1
is "$rc" 0 "zones --survive zone --limit 1: exit 0"
like "$out" "1 of 3 zones evaluated (the most loaded, --limit); without a failure 2 pods are unschedulable" "zones: zone a evaluated"
like "$out" "does not survive: losing some of them leaves pods placed in the baseline without a node" \
	"zones: losing zone a does not survive (the pod count said it did)"
like "$out" "  loses shop/api-1 (priority 1000): 0/4 nodes are available:" "zones: names the API replica that loses its node"
like "$out" "  loses shop/trainer (priority 1000): 0/4 nodes are available: " "zones: names the GPU trainer"
like "$out" "Insufficient nvidia.com/gpu" "zones: the trainer's new reason"
like "$out" "  gains shop/report-3 (priority 0)" "zones: names a pod that gains a node, apart"
like "$out" "worst: zone a: 2 pods placed now lose their node (3 displaced, 2 gain one)" "zones: the worst"
zid=$(q "$zdb" "SELECT max(id) FROM capacity_run")
is "$(q1 "$zdb" "SELECT answer || ' ' || status FROM capacity_run WHERE id = $zid")" "0 fails" "zones: capacity_run says fails"
is "$(q1 "$zdb" "SELECT domain || ':' || pods_lost || ':' || unschedulable || ':' || extra_unschedulable || ':' || survives FROM capacity_domain WHERE capacity_id = $zid")" \
	"a:2:2:0:0" "zones: capacity_domain: 2 lost, as many unschedulable as before (extra 0), does not survive"
is "$(q1 "$zdb" "SELECT group_concat(change || ':' || pod || ':' || priority, ' ') FROM (SELECT * FROM capacity_pod WHERE capacity_id = $zid ORDER BY change DESC, pod)")" \
	"loses:api-1:1000 loses:trainer:1000 gains:report-3:0 gains:report-4:0" "zones: capacity_pod, lost and gained apart"
run "$KPLAN" capacity "$zdb" --survive zone --limit 1 --format json --no-record
is "$(printf '%s' "$out" | python3 -c 'import json,sys
a = json.load(sys.stdin); r = a["results"][0]
print(a["capacity_id"], a["survives"], a["baseline"]["pending"], a["baseline"]["unschedulable"], r["domain"], r["survives"],
      " ".join("%s/%s:%d" % (p["namespace"], p["pod"], p["priority"]) for p in r["lost"]),
      " ".join(p["pod"] for p in r["gained"]))' 2>&1)" \
	"None False 2 2 a False shop/api-1:1000 shop/trainer:1000 report-3 report-4" \
	"zones json: survives (overall), baseline counts, per failure survives and the lost pods' names"
run "$KPLAN" capacity "$zdb" --survive zone --no-record
like "$out" "$(printf 'a                                2         3     2             2 no ')" "zones, every zone: zone a does not survive"
run "$KPLAN" capacity "$zdb" --survive rack --format json --no-record
is "$(printf '%s' "$out" | python3 -c 'import json,sys
a = json.load(sys.stdin)
print(a["kind"], a["label"], a["domains"], " ".join("%s:%s:%s" % (r["domain"], r["nodes"], ",".join(p["pod"] for p in r["lost"])) for r in a["results"]))' 2>&1)" \
	"survive-label rack 3 r1:2:api-1,trainer r2:2:api-2,api-3,report-1 r3:2:api-4,api-5,report-2" \
	"--survive LABEL: the domains of a node label (rack r1 = zone a)"
run "$KPLAN" capacity "$zdb" --survive nosuchlabel --no-record
like "$out" "no nosuchlabel to lose (no node has the label nosuchlabel): no verdict" "--survive LABEL no node has: says so, no verdict"
unlike "$out" "survives:" "--survive LABEL no node has: does not say it survives"
run "$KPLAN" capacity "$zdb" --survive nosuchlabel --format json --no-record
is "$(printf '%s' "$out" | python3 -c 'import json,sys; a = json.load(sys.stdin); print(a["survives"], a["evaluated"])' 2>&1)" "None 0" \
	"--survive LABEL no node has: json survives null"
is "$(sqlite3 "$zdb" ".dump $INPUTS" | sha256sum)" "$zinputs" "zones: imported tables and run/placement unchanged"

# ---- issue 14: one baseline: the "now" counts are plan's (preemption on by default) ----
edb="$T/examples.db"
"$KPLAN" import -q "$edb" "$ROOT/examples" || fail "import examples"
for pre in "" --no-preemption; do
	run "$KPLAN" capacity "$edb" --survive zone --limit 1 --format json --no-record $pre
	capb=$(printf '%s' "$out" | python3 -c 'import json,sys
b = json.load(sys.stdin)["baseline"]
print(b["pending"], b["placed"], b["unschedulable"], b["evicted"], b["moved"], b["preemption"])' 2>&1)
	"$KPLAN" plan -q $pre "$edb"
	r=$(q "$edb" "SELECT max(id) FROM run")
	planb=$(q "$edb" "SELECT sum(action IN ('bind', 'unschedulable')) || ' ' || sum(action = 'bind') || ' ' || sum(action = 'unschedulable')
		|| ' ' || sum(action = 'evict') || ' ' || sum(action = 'move') FROM placement WHERE run_id = $r")
	is "$capb" "$planb $([ -z "$pre" ] && echo True || echo False)" \
		"examples${pre:+ $pre}: capacity's baseline counts = plan's run $r (pending, placed, unschedulable, evicted, moved)"
done
[ "$(q "$edb" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'evict'")" -gt 0 ]
ok $? \
	"examples: plan preempts (so a baseline without preemption would differ)"
run "$KPLAN" capacity "$edb" --survive zone --limit 1 --no-record
like "$out" "baseline: the cluster as it is, planned as \`kplan plan\` plans it (preemption on, seed 1, configuration default, kube 1.37): 27 pending pods: 24 placed, 3 unschedulable; preemption: 1 evicted, 1 moved" \
	"examples: the text names the baseline and its counts"

# ---- issue 14: nodes needed, always a number (make demo's cluster) ----
run "$KPLAN" capacity "$edb" --nodes-needed --node-template "$D/node-4cpu.yaml" --format json --no-record
is "$(printf '%s' "$out" | python3 -c 'import json,sys
a = json.load(sys.stdin)
print(a["status"], type(a["nodes"]).__name__, a["nodes"], a["never_fit_count"], len(a["never_fit"]))' 2>&1)" "found int 1 3 3" \
	"examples: a number of nodes (1), the 3 pods that never fit on the template listed and left out"
run "$KPLAN" capacity "$edb" --nodes-needed --node-template "$D/node-tainted.yaml" --node-template "$D/node-4cpu.yaml" --no-record
like "$out" "smallest: 1 node like $D/node-4cpu.yaml, 3 pending pods left out as never fitting (2 templates asked" \
	"two templates: the smallest"
like "$out" "template 1 of 2: 0 nodes like $D/node-tainted.yaml needed" "two templates: an answer for each (1)"
like "$out" "template 2 of 2: 1 node like $D/node-4cpu.yaml needed" "two templates: an answer for each (2)"

# ---- issue 14: read-only (a read-only bind mount, as 58-read-only.t) ----
# every question answers on a database the user cannot write: --no-record, or
# a note that the answer is not recorded; the dry runs write only TEMP tables
# (their certificate too), --pod's spec goes to TEMP copies of the class tables
rosrc="$T/rosrc"
romnt="$T/romnt"
mkdir -p "$rosrc" "$romnt"
"$KPLAN" import -q "$rosrc/r.db" "$D/cluster.yaml" "$D/pending.yaml" || fail "import for read-only"
rodump=$(sqlite3 "$rosrc/r.db" .dump | sha256sum)
ro_capacity() { # ro_capacity DB DESC
	run "$KPLAN" capacity "$1" --survive zone --no-record --format json
	is "$rc" 0 "$2: --survive zone --no-record exits 0"
	is "$(printf '%s' "$out" | python3 -c 'import json,sys; a = json.load(sys.stdin); print(a["capacity_id"], a["survives"], a["quality"]["plan"])' 2>&1)" \
		"None False the plan without zone a (the worst)" "$2: the answer, not recorded, with its certificate"
	run "$KPLAN" capacity "$1" --pod "$D/pod-1cpu.yaml"
	is "$rc" 0 "$2: --pod (a spec not in the database) exits 0 without --no-record"
	like "$out" "capacity (not recorded): 3 more replicas of $D/pod-1cpu.yaml" "$2: --pod answers"
	like "$err" "cannot be written: the answer is not recorded (as with --no-record)" "$2: says the answer is not recorded"
	run "$KPLAN" capacity "$1" --nodes-needed --node-template "$D/node-4cpu.yaml" --no-record
	like "$out" "3 nodes like $D/node-4cpu.yaml needed" "$2: --nodes-needed answers"
	run "$KPLAN" capacity "$1" --workload shop/web --no-record -q
	is "$rc$out" "0" "$2: --workload -q: exit 0, nothing printed"
}
if mount --bind "$rosrc" "$romnt" 2>/dev/null && mount -o remount,ro,bind "$romnt" 2>/dev/null; then
	ro_capacity "$romnt/r.db" "read-only mount"
	umount "$romnt"
	sqlite3 "$rosrc/r.db" "SELECT count(*) FROM node" >/dev/null   # the sqlite3 shell removes -wal/-shm on close
	mount --bind "$rosrc" "$romnt" && mount -o remount,ro,bind "$romnt"
	ro_capacity "$romnt/r.db" "read-only mount without -wal/-shm"
	umount "$romnt"
else
	umount "$romnt" 2>/dev/null
	skip "mount is not permitted here: no read-only mount" 16
fi
is "$(sqlite3 "$rosrc/r.db" .dump | sha256sum)" "$rodump" "read-only: the database is unchanged"
run "$KPLAN" capacity "$rosrc/r.db" --survive node --no-record
is "$rc" 0 "--no-record on a writable database: exit 0"
is "$(sqlite3 "$rosrc/r.db" .dump | sha256sum)" "$rodump" "--no-record: the database is unchanged"

# the report shows the answers
"$KPLAN" plan -q "$pdb"
run "$KPLAN" report "$pdb"
like "$out" "Capacity" "report: capacity section"
like "$out" "nodes-needed" "report: the answers"
run "$KPLAN" report --format json "$pdb"
like "$out" '"capacity"' "report json: capacity section"
like "$out" '"capacity_quality"' "report json: the certificates"
run "$KPLAN" report "$pdb"
like "$out" "Capacity: quality certificates" "report: the certificates section"
like "$out" "m5.xlarge       5     5     7      4  requests:cpu    25.0%" "report: the nodes-needed answer's pool line"
is "$(q "$db" "SELECT count(*) FROM capacity_quality WHERE bound > nodes_used") $(q "$pdb" "SELECT count(*) FROM capacity_quality WHERE bound > nodes_used")" \
	"0 0" "no certificate's bound exceeds the nodes used"

# errors: usage 64, input 1, database unchanged
inputs "$db" >"$T/inputs.sql"
before=$(sqlite3 "$db" .dump | sha256sum)
for args in "" "--pod" "--pod $D/pod-1cpu.yaml --survive node" "--survive a=b" "--max 0 --pod x" "--max x --pod x" \
	"--nodes-needed" "--node-template $D/node-4cpu.yaml" "--limit 3 --pod x" "--format xml --survive node" \
	"--workload web" "--bogus"; do
	run "$KPLAN" capacity "$db" $args
	is "$rc" 64 "usage error exits 64: capacity DB $args"
done
run "$KPLAN" capacity "$db" --pod "$D/bad-pod.yaml"
is "$rc" 1 "bad pod file: exit 1"
like "$err" "bad-pod.yaml:5:" "bad pod file: file:line:col"
like "$err" "invalid quantity '1Q'" "bad pod file: what is wrong"
like "$err" "nothing was written" "bad pod file: nothing written"
run "$KPLAN" capacity "$db" --pod "$D/two-pods.yaml"
is "$rc" 1 "two pods: exit 1"
like "$err" "exactly one Pod or one workload" "two pods: message"
run "$KPLAN" capacity "$db" --pod "$T/missing.yaml"
is "$rc" 1 "missing file: exit 1"
run "$KPLAN" capacity "$db" --workload shop/nope
is "$rc" 1 "unknown workload: exit 1"
like "$err" "no workload named 'nope'" "unknown workload: message"
run "$KPLAN" capacity "$db" --nodes-needed --node-template "$D/bad-pod.yaml"
is "$rc" 1 "bad node template: exit 1"
like "$err" "--node-template '$D/bad-pod.yaml':" "bad node template: named as given"
run "$KPLAN" capacity "$T/nope.db" --survive node
is "$rc" 1 "missing database: exit 1"
is "$(sqlite3 "$db" .dump | sha256sum)" "$before" "errors: the database is byte-identical"
run sh -c "'$KPLAN' capacity '$db' --survive node >/dev/full"
is "$rc" 1 "stdout failing: exit 1"
is "$(sqlite3 "$db" .dump | sha256sum)" "$before" "stdout failing: nothing written"

# generated cluster: --workload agrees with plan --scale (both with preemption, the default of each)
if [ -x "$ROOT/build/bench/gen" ]; then
	"$ROOT/build/bench/gen" --nodes 100 --pods 2000 -o "$T/gen.yaml" >/dev/null 2>&1
	gdb="$T/g.db"
	"$KPLAN" import -q "$gdb" "$T/gen.yaml"
	w=$(q1 "$gdb" "SELECT namespace || '/' || name FROM workload WHERE kind = 'Deployment' ORDER BY id LIMIT 1")
	run "$KPLAN" capacity "$gdb" --workload "$w" --format json
	fits=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["fits"])')
	ok $? "generated: capacity --workload $w answered ($fits)"
	cur=$("$KPLAN" plan --scale "$w=+0" "$gdb" | sed -n 's/.*already \([0-9]*\) replica.*/\1/p')
	base=$("$KPLAN" plan -q "$gdb" && q "$gdb" "SELECT count(*) FROM plan WHERE action = 'unschedulable'")
	"$KPLAN" plan -q --scale "$w=$((cur + fits))" "$gdb"
	is "$(q "$gdb" "SELECT count(*) FROM plan WHERE action = 'unschedulable'")" "$base" \
		"generated: plan --scale $w=$((cur + fits)) (replicas + answer) leaves nothing more unschedulable"
	cols="pool, nodes, nodes_used, pods, bound, bound_by, requests_bound, large_pods_bound, anti_affinity_bound, gap_pct"
	qp=$(q "$gdb" "SELECT $cols FROM plan_quality WHERE run_id = (SELECT max(id) FROM run) ORDER BY pool")
	qc=$(q "$gdb" "SELECT $cols FROM capacity_quality WHERE capacity_id = (SELECT max(id) FROM capacity_run) ORDER BY pool")
	[ -n "$qc" ] && [ "$qp" = "$qc" ]
	ok $? "generated: the --workload answer's certificate = plan_quality of plan --scale $w=$((cur + fits))"
	"$KPLAN" plan -q --scale "$w=$((cur + fits + 1))" "$gdb"
	is "$(q "$gdb" "SELECT count(*) FROM plan WHERE action = 'unschedulable'")" "$((base + 1))" \
		"generated: one more replica leaves one unschedulable"
	# SIGINT during --survive node --survive-replan (100 plans of 2,000 pods): 130, nothing written
	gbefore=$(sqlite3 "$gdb" .dump | sha256sum)
	"$KPLAN" capacity "$gdb" --survive node --survive-replan >/dev/null 2>"$T/int.err" &
	pid=$!
	sleep 0.5
	kill -INT "$pid"
	wait "$pid"
	is "$?" 130 "SIGINT: exit 130"
	like "$(cat "$T/int.err")" "interrupted" "SIGINT: says so"
	is "$(sqlite3 "$gdb" .dump | sha256sum)" "$gbefore" "SIGINT: the database is unchanged"
else
	skip "build/bench/gen not built" 7
fi
done_testing
