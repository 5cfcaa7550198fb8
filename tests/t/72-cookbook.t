#!/usr/bin/env bash
# 72-cookbook.t — every query in queries/cookbook/ runs on a plan of examples/ and
# gives the rows worked out by hand from examples/ (see examples/README.md), or,
# where the answer depends on scores, the rows an independent SQL query over the
# plan gives.  A .sql file in the directory without a test here fails.
. "$(dirname "$0")/../lib.sh"

CB="$ROOT/queries/cookbook"
db="$T/ex.db"
"$KPLAN" import -q "$db" "$ROOT/examples/" || fail "import examples/"
"$KPLAN" plan -q "$db" || fail "plan examples/"
# examples/ plus tests/data/cookbook/extra.yaml: an idle tainted node and two
# more budgets, for the queries that print nothing on examples/ alone
db2="$T/ex2.db"
"$KPLAN" import -q "$db2" "$ROOT/examples/" "$TESTS_DIR/data/cookbook/extra.yaml" || fail "import extra"
"$KPLAN" plan -q "$db2" || fail "plan extra"

covered=" "
# cb NAME [DB [SED-SCRIPT]]: run queries/cookbook/NAME.sql (csv, no header) into $out, $rc
cb() {
	covered="$covered$1 "
	if [ -n "${3:-}" ]; then
		sed "$3" "$CB/$1.sql" >"$T/q.sql"
	else
		cp "$CB/$1.sql" "$T/q.sql"
	fi
	run "$KPLAN" query --format csv --no-header "${2:-$db}" - <"$T/q.sql"
	[ "$rc" = 0 ] || printf '# %s: rc %s: %s\n' "$1" "$rc" "$err"
}
row() { printf '%s\n' "$out" | grep -F -- "$1"; }   # the lines of $out holding a string

# --- top-reasons: the three pods README expects unschedulable (too-big, search-reindex,
# nightly-export: 1 infra taint, 1 gpu taint, 1 cordoned each; 5 Insufficient cpu for
# too-big and nightly-export, 5 node affinity for search-reindex) plus the preempted
# backfill pod whose replacement found no node (1+1+1, 5 Insufficient cpu, 2 Insufficient memory);
# kube 1.35+ (the default 1.37) names no taint: the two taint reasons are one, on 8 nodes
cb top-reasons
is "$out" "TaintToleration,node(s) had untolerated taint(s),4,8
NodeUnschedulable,node(s) were unschedulable,4,4
NodeResourcesFit,Insufficient cpu,3,15
NodeAffinity,node(s) didn't match Pod's node affinity/selector,1,5
NodeResourcesFit,Insufficient memory,1,2" "top-reasons: reasons by pods, with node counts"
is "$(q "$db" "SELECT count(*) FROM plan WHERE action = 'unschedulable' OR (action = 'evict' AND node IS NULL)")" 4 \
	"top-reasons: 4 pods ended without a node (cross-check)"

# --- pods-per-node
cb pods-per-node
is "$(row gen-c-2)" "gen-c-2,4,1,0,5,58,0" "pods-per-node: cordoned gen-c-2 keeps 4 and gets node-exporter"
is "$(row gpu-c-1)" "gpu-c-1,1,3,0,4,234,0" "pods-per-node: gpu-c-1 keeps jupyter-alice, gets 2 train + node-exporter"
is "$(row infra-a-1)" "infra-a-1,3,1,0,4,58,0" "pods-per-node: infra-a-1 keeps 3, gets node-exporter"
is "$(row gen-a-2 | cut -d, -f2,6,7)" "3,234,2" "pods-per-node: gen-a-2 keeps 3 (2 backfill pods evicted from it)"
is "$(printf '%s\n' "$out" | awk -F, '{t += $5} END {print t}')" 51 \
	"pods-per-node: 51 pods run after the plan (28 running - 2 evicted + 24 bound + 1 moved)"
is "$out" "$(q "$db" "SELECT node, sum(action = 'keep'), sum(action = 'bind'), sum(action = 'move'), count(*),
                  (SELECT allocatable FROM node_resource r JOIN node n ON n.id = r.node_id WHERE n.name = plan.node AND resource = 'pods'),
                  (SELECT count(*) FROM plan f WHERE f.from_node = plan.node)
               FROM plan WHERE node IS NOT NULL GROUP BY node ORDER BY count(*) DESC, node")" \
	"pods-per-node: every row agrees with the plan view"

# --- low-cpu-nodes (after the plan: infra-a-1 1850m + 100m node-exporter = 1950m of 3920m;
# gpu-c-1 4000m + 2 x 6000m + 100m = 16100m of 31850m; every other node is above 70 %)
cb low-cpu-nodes
is "$out" "" "low-cpu-nodes: no node of examples/ is under 20 % cpu"
cb low-cpu-nodes "$db" 's/SELECT 20)/SELECT 51)/'
is "$out" "infra-a-1,3920,1950,49.7,4
gpu-c-1,31850,16100,50.5,4" "low-cpu-nodes with the threshold at 51 %"
cb low-cpu-nodes "$db2"
is "$out" "spare-b-2,3920,100,2.6,1" "low-cpu-nodes: the spare node runs node-exporter only (100m)"

# --- what-fits-where
cb what-fits-where
is "$(printf '%s\n' "$out" | grep -c ',0$')" 8 "what-fits-where: search-reindex fits no node"
is "$(printf '%s\n' "$out" | grep -c 'nodeSelector node.kubernetes.io/instance-type=r5.2xlarge')" 8 \
	"what-fits-where: its nodeSelector (r5.2xlarge) blocks all 8 nodes"
is "$(row gpu-c-1 | cut -d, -f1,2,4,5,6)" \
	"gpu-c-1,15750,,1,taint nvidia.com/gpu=present:NoSchedule; nodeSelector node.kubernetes.io/instance-type=r5.2xlarge" \
	"what-fits-where: gpu-c-1 has 31850m - 16100m free, but the GPU taint"
is "$(row gen-c-2 | cut -d, -f1,2,5,6)" "gen-c-2,2310,1,cordoned; nodeSelector node.kubernetes.io/instance-type=r5.2xlarge" \
	"what-fits-where: gen-c-2 has 7910m - 5600m free and is cordoned"
is "$(row infra-a-1 | cut -d, -f1,2,3)" "infra-a-1,1970,7790833664" \
	"what-fits-where: infra-a-1 free cpu and memory (15172808704 - 7381975040)"
cb what-fits-where "$db" "s/SELECT 'shop', 'search-reindex'/SELECT 'batch', 'nightly-export-xsqsb'/"
is "$(printf '%s\n' "$out" | head -1)" "gpu-c-1,15750,117140348928,,1,taint nvidia.com/gpu=present:NoSchedule,0" \
	"what-fits-where: nightly-export (4 cpu) fits gpu-c-1 by resources alone"
is "$(printf '%s\n' "$out" | awk -F, '$5 == 0' | grep -c 'cpu [0-9]* short')" 7 \
	"what-fits-where: the other 7 nodes are short of cpu"
cb what-fits-where "$db" "s/SELECT 'shop', 'search-reindex'/SELECT 'shop', 'web-75668fcfcf-qg5nd'/"
is "$(printf '%s\n' "$out" | awk -F, '$NF == 1 {print $1}' | sort | tr '\n' ' ')" "gen-a-1 gen-a-2 gen-b-1 gen-c-1 spot-b-1 " \
	"what-fits-where: a web pod (250m) fits every untainted, uncordoned node (PreferNoSchedule does not block)"
cb what-fits-where "$db" "s/SELECT 'shop', 'search-reindex'/SELECT 'shop', 'no-such-pod'/"
is "$out" "" "what-fits-where: an unknown pod gives no rows"

# --- spread-skew
cb spread-skew
is "$(row Deployment/web)" 'shop,Deployment/web,6,"{""eu-west-1a"":2,""eu-west-1b"":2,""eu-west-1c"":2}",2,2,0' \
	"spread-skew: web 2/2/2 (maxSkew 1, DoNotSchedule)"
is "$(row DaemonSet/node-exporter | cut -d, -f1,2,3,7,8,9)" 'monitoring,DaemonSet/node-exporter,8,2,3,1' \
	"spread-skew: node-exporter 3/2/3 (one per node)"
is "$(row Job/train | cut -d, -f3,7,8,9)" '2,0,2,2' "spread-skew: train only in zone c (gpu-c-1)"
is "$(row StatefulSet/kafka | cut -d, -f3,7,8,9)" '3,1,1,0' "spread-skew: kafka one per zone"
is "$(row StatefulSet/db | cut -d, -f3,7,8,9)" \
	"$(q "$db" "WITH z AS (SELECT l.value AS zone, count(pl.pod) AS n FROM node_label l JOIN node n ON n.id = l.node_id
	          LEFT JOIN plan pl ON pl.node = n.name AND pl.pod LIKE 'db-%' AND pl.namespace = 'data'
	          WHERE l.key = 'topology.kubernetes.io/zone' GROUP BY l.value)
	          SELECT sum(n), min(n), max(n), max(n) - min(n) FROM z")" \
	"spread-skew: db agrees with a count over the plan view"
is "$(printf '%s\n' "$out" | wc -l)" 18 "spread-skew: 18 controllers (6 workloads, 12 owners of running pods)"

# --- drain-blockers (gen-a-2: node-exporter is a DaemonSet pod, urgent-report a bare pod;
# checkout-pdb allows 1 disruption and the node holds 1 checkout pod: no block)
cb drain-blockers
is "$(printf '%s\n' "$out" | head -2)" "monitoring,node-exporter-s8zd7,DaemonSet/node-exporter,daemonset,
data,urgent-report,-,no-controller," "drain-blockers: DaemonSet and bare pod on gen-a-2"
is "$(row checkout)" "shop,checkout-7c9d8b6f4-xk2lp,ReplicaSet/checkout-7c9d8b6f4,,pdb checkout-pdb allows 1 / node has 1" \
	"drain-blockers: checkout is covered by a budget that allows it"
is "$(printf '%s\n' "$out" | wc -l)" "$(q "$db" "SELECT count(*) FROM plan WHERE node = 'gen-a-2'")" \
	"drain-blockers: one row per pod on the node after the plan"
cb drain-blockers "$db2" "s/SELECT 'gen-a-2'/SELECT 'gen-a-1'/"
is "$(row kafka-0)" "data,kafka-0,StatefulSet/kafka,pdb,pdb kafka-pdb allows 0 / node has 1" \
	"drain-blockers: kafka-pdb (maxUnavailable 0) blocks kafka-0"
is "$(row redis-0)" "data,redis-0,StatefulSet/redis,,pdb redis-pdb allows 1 / node has 1" \
	"drain-blockers: redis-pdb (minAvailable 50% of 3 = 2) allows 1"

# --- score-nodes-for-pod (search-reindex: 1 cpu, 2Gi).  By hand for gpu-c-1:
# cpu 16100+1000 = 17100 of 31850: least (14750*100)/31850 = 46, most 53;
# memory 137573171200+2147483648 = 139720654848 of 254713520128: least 45, most 54;
# means (46+45)/2 = 45, (53+54)/2 = 53; balanced (1 - |0.5369-0.5485|/2) * 100 = 99
cb score-nodes-for-pod
is "$(row gpu-c-1)" "gpu-c-1,17100,139720654848,45,53,99" "score-nodes-for-pod: gpu-c-1 by hand"
is "$(row infra-a-1)" "infra-a-1,2950,9529458688,30,68,93" "score-nodes-for-pod: infra-a-1 by hand"
is "$out" "$(q "$db" "WITH n AS (SELECT c.node, c.allocatable AS ca, c.requested_after + 1000 AS cr,
                                  m.allocatable AS ma, m.requested_after + 2147483648 AS mr
                           FROM node_usage c JOIN node_usage m ON m.node = c.node AND m.resource = 'memory' WHERE c.resource = 'cpu'),
                      s AS (SELECT node, cr, mr,
                                   ((CASE WHEN cr > ca THEN 0 ELSE (ca - cr) * 100 / ca END)
                                  + (CASE WHEN mr > ma THEN 0 ELSE (ma - mr) * 100 / ma END)) / 2 AS least,
                                   (min(cr, ca) * 100 / ca + min(mr, ma) * 100 / ma) / 2 AS most,
                                   CAST((1 - abs(min(1.0, cr * 1.0 / ca) - min(1.0, mr * 1.0 / ma)) / 2) * 100 AS INTEGER) AS bal
                            FROM n)
                      SELECT node, cr, mr, least, most, bal FROM s ORDER BY least DESC, bal DESC, node")" \
	"score-nodes-for-pod: every row agrees with the formulas in plain SQL"

# --- evictions (README: urgent-report preempts two batch-low backfill pods on gen-a-2, no PDB)
cb evictions
is "$(printf '%s\n' "$out" | cut -d, -f1-8)" "1,batch/backfill-q1-r2w6n,-10,gen-a-2,data/urgent-report,1000000,0,[]
2,batch/backfill-q1-h9c3v,-10,gen-a-2,data/urgent-report,1000000,0,[]" "evictions: victims, node, preemptor, no budget"
is "$(printf '%s\n' "$out" | cut -d, -f2,9,10)" \
	"$(q "$db" "SELECT p.namespace || '/' || p.pod, p.action, p.node FROM eviction e JOIN pod v ON v.id = e.pod_id
	           JOIN plan p ON p.namespace = v.namespace AND p.pod = v.name ORDER BY e.seq")" \
	"evictions: outcome and new node agree with the plan view"

# --- moves
cb moves
is "$out" "$(q "$db" "SELECT namespace, pod, from_node, node, 'data/urgent-report' FROM plan WHERE action = 'move' ORDER BY namespace, pod")" \
	"moves: the plan's move rows, preempted by urgent-report"
like "$out" "batch,backfill-q1-" "moves: a backfill pod moves"

# --- zone-utilisation (before, by hand from examples/README.md: zone a 4500+8500+1850,
# b 4500+4500, c 4500+5500+4000; allocatable a 7910+15890+3920, b 2 x 7910, c 7910+7910+31850)
cb zone-utilisation
is "$(printf '%s\n' "$out" | cut -d, -f1-4)" "eu-west-1a,3,27720,14850
eu-west-1b,2,15820,9000
eu-west-1c,3,47670,14000" "zone-utilisation: nodes, allocatable and cpu before the plan"
is "$(printf '%s\n' "$out" | cut -d, -f1,5)" \
	"$(q "$db" "SELECT l.value, sum(r.value) FROM plan p JOIN pod ON pod.namespace = p.namespace AND pod.name = p.pod
	           JOIN pod_request r ON r.pod_id = pod.id AND r.resource = 'cpu'
	           JOIN node n ON n.name = p.node JOIN node_label l ON l.node_id = n.id AND l.key = 'topology.kubernetes.io/zone'
	           WHERE p.action IN ('keep', 'bind', 'move') GROUP BY l.value ORDER BY l.value")" \
	"zone-utilisation: cpu after agrees with the requests of the pods the plan puts in each zone"

# --- empty-nodes
cb empty-nodes
is "$out" "" "empty-nodes: every node of examples/ keeps a pod of its own"
cb empty-nodes "$db2"
is "$out" "spare-b-2,1,0,maintenance=planned:NoSchedule" "empty-nodes: the spare node runs only node-exporter"

# --- pods-per-priority (critical: urgent-report; high: alertmanager, prometheus + 3 db +
# 8 node-exporter; standard 1000: 23 bound (incl. the Succeeded ledger-close) + 6 web,
# 4 api, 2 train, too-big and search-reindex; batch-never: nightly-export; batch-low: 4 backfill)
cb pods-per-priority
is "$(printf '%s\n' "$out" | cut -d, -f1-5,8)" "1000000,critical,1,0,1,0
10000,high,13,2,11,0
1000,standard,37,23,12,2
100,batch-never,1,0,0,1
-10,batch-low,4,2,0,0" "pods-per-priority: pods, keep, bind, unschedulable per priority"
is "$(row batch-low | cut -d, -f6,7)" "1,1" "pods-per-priority: of the two evicted backfill pods one moves, one is evicted"

# --- namespaces-by-cpu
cb namespaces-by-cpu
is "$(row monitoring)" "monitoring,11,2650,8321499136,0,0" \
	"namespaces-by-cpu: monitoring = 3 running pods on infra-a-1 (1850m) + 8 node-exporter (800m)"
is "$(row ml, | cut -d, -f1,2,3,5,6)" "ml,3,16000,1,48000" "namespaces-by-cpu: ml = jupyter-alice 4 + 2 x 6 train; too-big unplaced"
is "$out" "$(q "$db" "SELECT p.namespace, sum(p.action IN ('keep','bind','move') AND p.node IS NOT NULL),
                          sum(CASE WHEN p.action IN ('keep','bind','move') AND p.node IS NOT NULL THEN COALESCE(c.value, 0) ELSE 0 END),
                          sum(CASE WHEN p.action IN ('keep','bind','move') AND p.node IS NOT NULL THEN COALESCE(m.value, 0) ELSE 0 END),
                          sum(p.action IN ('unschedulable', 'evict')),
                          sum(CASE WHEN p.action IN ('unschedulable', 'evict') THEN COALESCE(c.value, 0) ELSE 0 END)
                   FROM plan p JOIN pod ON pod.namespace = p.namespace AND pod.name = p.pod AND pod.phase NOT IN ('Succeeded', 'Failed')
                   LEFT JOIN pod_request c ON c.pod_id = pod.id AND c.resource = 'cpu'
                   LEFT JOIN pod_request m ON m.pod_id = pod.id AND m.resource = 'memory'
                   GROUP BY p.namespace ORDER BY 3 DESC, 1")" "namespaces-by-cpu: agrees with the plan view"

# --- largest-pending (requests from examples/04-apps.yaml)
cb largest-pending
is "$(printf '%s\n' "$out" | cut -d, -f1-6)" "ml,too-big,48000,4294967296,0,unschedulable
data,urgent-report,10000,34359738368,0,bind
ml,train-qj252,6000,51539607552,1,bind
ml,train-sx4wq,6000,51539607552,1,bind
batch,nightly-export-xsqsb,4000,4294967296,0,unschedulable
data,db-0,1500,4294967296,0,bind
data,db-1,1500,4294967296,0,bind
data,db-2,1500,4294967296,0,bind
shop,search-reindex,1000,2147483648,0,unschedulable
shop,api-769897749c-cq5ns,500,1073741824,0,bind" "largest-pending: the ten largest pending pods and their fate"
is "$(row urgent-report | cut -d, -f7)" gen-a-2 "largest-pending: urgent-report lands on gen-a-2"

# --- taints-nobody-tolerates (dedicated=infra: the monitoring stack; nvidia.com/gpu: train,
# jupyter-alice; the cordon taint: the DaemonSet controller's toleration; lifecycle=spot:
# nobody but the tolerate-everything node-exporter pods)
cb taints-nobody-tolerates
is "$out" "spot-b-1,lifecycle=spot:PreferNoSchedule,8,3" "taints-nobody-tolerates: only the spot taint"
cb taints-nobody-tolerates "$db2"
is "$out" "spare-b-2,maintenance=planned:NoSchedule,9,0
spot-b-1,lifecycle=spot:PreferNoSchedule,9,3" "taints-nobody-tolerates: the maintenance taint of the spare node too"

# --- pending-queue (README "Queue order")
cb pending-queue
is "$(printf '%s\n' "$out" | wc -l)" 27 "pending-queue: 27 pending pods"
is "$(printf '%s\n' "$out" | head -1)" "1,data,urgent-report,1000000,PreemptLowerPriority,cpu=10000 memory=34359738368" \
	"pending-queue: urgent-report first"
is "$(printf '%s\n' "$out" | sed -n 2,4p | cut -d, -f3)" "db-0
db-1
db-2" "pending-queue: then the db pods (high, created first)"
is "$(printf '%s\n' "$out" | tail -1)" "27,batch,nightly-export-xsqsb,100,Never,cpu=4000 memory=4294967296" \
	"pending-queue: nightly-export last, preemptionPolicy Never"
is "$(printf '%s\n' "$out" | cut -d, -f4 | sort -s -n -r | tr '\n' ' ')" "$(printf '%s\n' "$out" | cut -d, -f4 | tr '\n' ' ')" \
	"pending-queue: priorities never increase"
is "$(printf '%s\n' "$out" | grep ',train-' | cut -d, -f6)" "cpu=6000 memory=51539607552 nvidia.com/gpu=1
cpu=6000 memory=51539607552 nvidia.com/gpu=1" "pending-queue: requests include the GPU"

# --- pdb-status (checkout-pdb: 3 checkout pods, minAvailable 2 -> 1; none evicted)
cb pdb-status
is "$out" "shop,checkout-pdb,2,,3,1,3,1,0,0" "pdb-status: checkout-pdb allows 1 before and after"
cb pdb-status "$db2"
is "$out" "data,kafka-pdb,,0,3,0,3,0,0,0
data,redis-pdb,50%,,3,1,3,1,0,0
shop,checkout-pdb,2,,3,1,3,1,0,0" "pdb-status: maxUnavailable 0 allows 0; minAvailable 50% of 3 (rounded up to 2) allows 1"

# --- workload-status (README: everything binds but nightly-export)
cb workload-status
is "$out" "Job,batch,nightly-export,1,0,0,1
StatefulSet,data,db,3,3,3,0
Job,ml,train,2,2,2,0
DaemonSet,monitoring,node-exporter,8,8,8,0
Deployment,shop,api,4,4,4,0
Deployment,shop,web,6,6,6,0" "workload-status: desired, running, placed now, unplaced"

# --- free-capacity
cb free-capacity
is "$(row gpu-c-1)" "gpu-c-1,15750,109.1,1,230" \
	"free-capacity: gpu-c-1 31850m - 16100m, 237.22Gi - 128.125Gi, 4 - 3 GPUs, 234 - 4 pods"
is "$(row infra-a-1)" "infra-a-1,1970,7.26,,54" "free-capacity: infra-a-1 (no GPU column)"
is "$(row gen-c-2)" "gen-c-2,2310,12.79,,53" "free-capacity: gen-c-2 (17Gi + 128Mi of 29.92Gi)"
is "$(printf '%s\n' "$out" | cut -d, -f1,2)" \
	"$(q "$db" "SELECT node, allocatable - requested_after FROM node_usage WHERE resource = 'cpu' ORDER BY 2 DESC, 1")" \
	"free-capacity: cpu agrees with node_usage"

# --- plan-quality (m5.2xlarge: five 7910m nodes, each with node-exporter (100m): 7810m for
# other pods; those request 33000m after the plan > 4 x 7810m, so all 5 nodes are needed;
# each other pool has one node, used; nothing stranded)
cb plan-quality
is "$out" 'm5.2xlarge,5,5,5,requests:cpu,0.0,0,0.0,"5 nodes used, bound 5, gap 0.0 %"
m5.4xlarge,1,1,1,requests:cpu,0.0,0,0.0,"1 node used, bound 1, gap 0.0 %"
m5.xlarge,1,1,1,requests:cpu,0.0,0,0.0,"1 node used, bound 1, gap 0.0 %"
p3.8xlarge,1,1,1,requests:cpu,0.0,0,0.0,"1 node used, bound 1, gap 0.0 %"' "plan-quality: every pool of examples/ at its bound"
is "$(q "$db" "SELECT sum(r.value) FROM plan p JOIN pod ON pod.namespace = p.namespace AND pod.name = p.pod
	           JOIN node n ON n.name = p.node JOIN node_label l ON l.node_id = n.id
	            AND l.key = 'node.kubernetes.io/instance-type' AND l.value = 'm5.2xlarge'
	           JOIN pod_request r ON r.pod_id = pod.id AND r.resource = 'cpu'
	           WHERE p.action IN ('keep', 'bind', 'move') AND COALESCE(pod.owner_kind, '') <> 'DaemonSet'")" 33000 \
	"plan-quality: the m5.2xlarge pods other than node-exporter request 33000m (> 4 x 7810m)"
cb plan-quality "$db2"
is "$(row '(none)')" '(none),1,0,0,,,,,"0 nodes used, bound 0"' \
	"plan-quality: spare-b-2 (no instance type) runs only node-exporter: used 0, bound 0, no gap"
"$KPLAN" import -q "$T/q.db" "$TESTS_DIR/data/quality/memory.yaml" && "$KPLAN" plan -q "$T/q.db" || fail "plan quality/memory.yaml"
cb plan-quality "$T/q.db"
is "$out" 'tall,3,3,3,requests:memory,0.0,21000,0.0,"3 nodes used, bound 3, gap 0.0 %"' \
	"plan-quality: 6 x 3Gi on three 8Gi nodes: memory-bound, 21 cpus stranded (tests/data/quality/memory.yaml)"

# --- every file is tested and documented; every file also runs through stdin
# and as an argument, in each output format
for f in "$CB"/*.sql; do
	name=$(basename "$f" .sql)
	case "$covered" in
	*" $name "*) pass "$name.sql has a test" ;;
	*) fail "$name.sql has a test (add it to tests/t/72-cookbook.t)" ;;
	esac
	head -1 "$f" | grep -q "^-- $name.sql — " && grep -q '^-- Answers: ' "$f" && grep -q '^-- Run: ' "$f" &&
		grep -q '^-- Columns: ' "$f"
	ok $? "$name.sql has a header: title, Answers, Run, Columns"
done
n=$(ls "$CB"/*.sql | wc -l)
[ "$n" -ge 15 ]
ok $? "at least 15 cookbook queries ($n)"
bad=""
for f in "$CB"/*.sql; do
	for fmt in table csv json markdown; do
		"$KPLAN" query --format "$fmt" "$db" -- "$(cat "$f")" >/dev/null 2>"$T/e" || bad="$bad $(basename "$f")/$fmt"
	done
done
is "$bad" "" "every query runs as an argument in every format"

done_testing
