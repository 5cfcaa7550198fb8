#!/usr/bin/env bash
# 43-quality.t — the plan's quality certificate (planner/quality.c): per node
# pool, plan_quality (nodes used against a lower bound on the nodes the pods
# need) and plan_stranded.  Exact values on the small clusters of
# tests/data/quality/ (worked out by hand in each file's header; dra*.yaml:
# DRA devices as a resource device:DRIVER, network-attached ones left out);
# a database without the DRA tables plans as before; on
# generated clusters, examples/ and openb, every bound is a lower bound
# (never above the nodes the plan uses) and the counts agree with
# independent queries over the plan view.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/quality"
GEN="$(dirname "$KPLAN")/bench/gen"
POOL="COALESCE((SELECT value FROM node_label l WHERE l.node_id = n.id AND l.key = 'node.kubernetes.io/instance-type'), '(none)')"
# app pods: on a node after the plan, not DaemonSet or static pods
APPS="plan p JOIN pod ON pod.namespace = p.namespace AND pod.name = p.pod JOIN node n ON n.name = p.node
      WHERE p.action IN ('keep', 'bind', 'move') AND COALESCE(pod.owner_kind, '') NOT IN ('DaemonSet', 'Node')
        AND pod.daemon_node IS NULL"
QCOLS="pool, nodes, nodes_used, pods, bound, bound_by, requests_bound, large_pods_bound, anti_affinity_bound, gap_pct"
SCOLS="pool, resource, nodes, allocatable, free, stranded, stranded_nodes, stranded_pct, exhausted_by"

# plan_one NAME: import tests/data/quality/NAME.yaml and plan it into $T/NAME.db
plan_one() {
	"$KPLAN" import -q "$T/$1.db" "$D/$1.yaml" || fail "$1: import"
	"$KPLAN" plan -q "$T/$1.db" || fail "$1: plan"
}
qual() { q "$1" "SELECT $QCOLS FROM plan_quality WHERE run_id = (SELECT max(id) FROM run) ORDER BY pool"; }
strand() { q "$1" "SELECT $SCOLS FROM plan_stranded WHERE run_id = (SELECT max(id) FROM run) ORDER BY pool, resource"; }

# sound DB NAME: the checks that hold for every plan
sound() {
	local db=$1 name=$2
	is "$(q "$db" "SELECT count(*) FROM plan_quality WHERE run_id = (SELECT max(id) FROM run)
	               AND (bound > nodes_used OR requests_bound > nodes_used OR large_pods_bound > nodes_used
	                    OR anti_affinity_bound > nodes_used OR nodes_used > nodes)")" 0 \
		"$name: every bound and every component <= nodes used <= nodes, in every pool"
	is "$(q "$db" "SELECT group_concat(pool || '=' || nodes, ' ') FROM (SELECT pool, nodes FROM plan_quality
	               WHERE run_id = (SELECT max(id) FROM run) ORDER BY pool)")" \
		"$(q "$db" "SELECT group_concat(pool || '=' || c, ' ') FROM (SELECT $POOL AS pool, count(*) AS c FROM node n GROUP BY 1 ORDER BY 1)")" \
		"$name: one row per pool with its nodes"
	is "$(q "$db" "SELECT group_concat(pool || '=' || nodes_used || '/' || pods, ' ') FROM (SELECT * FROM plan_quality
	               WHERE run_id = (SELECT max(id) FROM run) AND pods > 0 ORDER BY pool)")" \
		"$(q "$db" "SELECT group_concat(pool || '=' || u || '/' || c, ' ') FROM (SELECT $POOL AS pool, count(DISTINCT n.id) AS u,
		            count(*) AS c FROM $APPS GROUP BY 1 ORDER BY 1)")" \
		"$name: nodes used and pods = the nodes holding pods other than DaemonSet pods (plan view)"
	is "$(q "$db" "SELECT count(*) FROM plan_quality WHERE run_id = (SELECT max(id) FROM run) AND NOT (
	                 (bound = max(requests_bound, large_pods_bound, anti_affinity_bound, pods > 0))
	                 AND (bound = 0) = (bound_by IS NULL) AND (bound = 0) = (gap_pct IS NULL)
	                 AND (gap_pct IS NULL OR gap_pct = round(100.0 * (nodes_used - bound) / bound, 1)))")" 0 \
		"$name: bound = the largest component; bound_by and gap_pct set exactly when bound > 0"
	is "$(q "$db" "SELECT count(*) FROM plan_stranded WHERE run_id = (SELECT max(id) FROM run)
	               AND NOT (0 <= stranded AND stranded <= free AND free <= allocatable AND stranded_nodes <= nodes
	                        AND (stranded > 0) = (exhausted_by IS NOT NULL))")" 0 \
		"$name: stranded <= free <= allocatable; exhausted_by named exactly when something is stranded"
	is "$(q "$db" "SELECT group_concat(pool || '/' || resource || '=' || free, ' ') FROM (SELECT * FROM plan_stranded
	               WHERE run_id = (SELECT max(id) FROM run) AND resource IN ('cpu', 'memory') ORDER BY pool, resource)")" \
		"$(q "$db" "WITH used AS (SELECT DISTINCT n.name AS node, $POOL AS pool FROM $APPS)
		            SELECT group_concat(pool || '/' || resource || '=' || f, ' ') FROM (SELECT pool, u.resource,
		            sum(max(u.allocatable - u.requested_after, 0)) AS f FROM node_usage u JOIN used ON used.node = u.node
		            WHERE u.resource IN ('cpu', 'memory') GROUP BY 1, 2 ORDER BY 1, 2)")" \
		"$name: free cpu and memory per pool = the node_usage view over the used nodes"
}

# ---- small clusters, by hand ----
plan_one cpu
is "$(qual "$T/cpu.db")" "(none),2,0,0,0,,0,0,0,
small,4,4,10,3,requests:cpu,3,0,0,33.3" \
	"cpu: 10 pods of 1 cpu on 4-cpu nodes: bound 3, used 4, gap 33.3 %; the pool without pods: 0, 0, gap NULL"
is "$(strand "$T/cpu.db")" "small,cpu,4,16000,6000,0,0,0.0,
small,memory,4,68719476736,57982058496,0,0,0.0," "cpu: nothing stranded; the empty pool has no stranded rows"
sound "$T/cpu.db" cpu

plan_one anti
is "$(qual "$T/anti.db")" "m,8,5,5,5,anti-affinity:data/zk,1,0,5,0.0" \
	"anti: a StatefulSet of 5 kept apart by required anti-affinity: bound 5 (requests 1)"
is "$(q "$T/anti.db" "SELECT count(DISTINCT node) FROM plan WHERE pod LIKE 'zk-%'")" 5 "anti: the plan puts the 5 pods on 5 nodes"
sound "$T/anti.db" anti

plan_one memory
is "$(qual "$T/memory.db")" "tall,3,3,6,3,requests:memory,3,0,0,0.0" \
	"memory: 6 x 3Gi on 8Gi nodes: memory gives the bound 3 (cpu 1)"
is "$(strand "$T/memory.db")" "tall,cpu,3,24000,21000,21000,3,87.5,memory
tall,memory,3,25769803776,6442450944,0,0,0.0," \
	"memory: 2Gi free per node < 3Gi: memory exhausted, the 21 free cpus stranded"
sound "$T/memory.db" memory

plan_one mixed
is "$(qual "$T/mixed.db")" "mixed,6,3,3,3,large-pods:cpu,2,3,0,0.0" \
	"mixed shapes: capacities 15,15,15,3,3,3 (less the DaemonSet): requests 2; three 9-cpu pods: large-pods 3"
is "$(q "$T/mixed.db" "SELECT count(DISTINCT node) FROM plan WHERE action = 'bind'")" 6 \
	"mixed: DaemonSet pods on all 6 nodes (they do not count as used)"
is "$(strand "$T/mixed.db" | cut -d, -f2,6,7,9)" "cpu,0,0,
memory,178778013696,3,cpu" "mixed: 6 cpus free on the large nodes < 9: cpu exhausted, their memory stranded"
sound "$T/mixed.db" mixed

plan_one overcommit
is "$(qual "$T/overcommit.db")" "oc,2,1,3,1,requests:cpu,1,0,1,0.0" \
	"over-committed and anti-affinity-breaking bound pods: the bound stays 1 (the plan uses 1 node)"
sound "$T/overcommit.db" overcommit

# ---- DRA devices: requests:device:DRIVER ----
plan_one dra
is "$(qual "$T/dra.db")" "gpu,3,3,3,3,requests:device:gpu.example.com,3,0,0,0.0" \
	"dra: 3 pods of one GPU, one node-local GPU per node: bound 3 by requests:device:gpu.example.com (cpu 1)"
is "$(strand "$T/dra.db")" "gpu,cpu,3,24000,23700,23700,3,98.8,device:gpu.example.com
gpu,device:gpu.example.com,3,3,0,0,0,0.0,
gpu,memory,3,51539607552,51136954368,51136954368,3,99.2,device:gpu.example.com" \
	"dra: no GPU left on a node: the devices are exhausted, the free cpu and memory stranded"
sound "$T/dra.db" dra

plan_one dra-net
is "$(q "$T/dra-net.db" "SELECT group_concat(pool || '=' || n, ' ') FROM (SELECT pool, count(*) AS n FROM dra_allocation GROUP BY 1 ORDER BY 1)")" \
	"g1=1 g2=1 g3=1 rack=2 row=1" "dra-net: six GPUs allocated, three of them network-attached (allNodes, nodeSelector)"
is "$(qual "$T/dra-net.db")" "gpu,3,3,6,3,requests:device:gpu.example.com,3,0,0,0.0" \
	"dra-net: the network-attached GPUs are left out: 3 node-local GPUs held on capacities 1, 1, 1: bound 3"
is "$(q "$T/dra-net.db" "SELECT allocatable || '/' || free FROM plan_stranded WHERE resource = 'device:gpu.example.com'")" "3/0" \
	"dra-net: the pool's devices are its nodes' node-local GPUs only (3, not 6)"
sound "$T/dra-net.db" dra-net

plan_one dra-bound
is "$(q "$T/dra-bound.db" "SELECT group_concat(node, ' ') FROM (SELECT node FROM plan WHERE pod LIKE 'infer-%' ORDER BY node)")" \
	"g2 g2 g3" "dra-bound: g1's GPUs are held by the running pod's claim, two of g3's by an unused claim"
is "$(qual "$T/dra-bound.db")" "gpu,3,3,4,3,requests:device:gpu.example.com,3,0,0,0.0" \
	"dra-bound: 5 GPUs held (2 imported, 3 the run's) on capacities 2, 2, 1 (g3 less the claim no pod uses): bound 3"
is "$(q "$T/dra-bound.db" "SELECT allocatable || '/' || free FROM plan_stranded WHERE resource = 'device:gpu.example.com'")" "7/0" \
	"dra-bound: every GPU in use (the unused claim's too)"
sound "$T/dra-bound.db" dra-bound

cp "$T/dra.db" "$T/dra-dry.db"
run "$KPLAN" capacity --no-record "$T/dra-dry.db" --survive node
is "$rc:$(printf '%s\n' "$out" | grep -cE '^gpu +2 +2 +2 +2 requests:device:gpu\.example\.com')" "$rc:1" \
	"capacity (a dry run, TEMP tables): the device bound without the worst node (2 pods, 2 nodes)"

# a database without the DRA tables: plans as before
cp "$T/memory.db" "$T/nodra.db"
sqlite3 "$T/nodra.db" "DROP VIEW dra_cel; DROP TABLE dra_allocation; DROP TABLE workload_resource_claim;
	DROP TABLE pod_resource_claim; DROP TABLE resource_claim_template; DROP TABLE resource_claim_reserved;
	DROP TABLE resource_claim_consumed; DROP TABLE resource_claim_result; DROP TABLE resource_claim;
	DROP TABLE claim_constraint; DROP TABLE claim_request_capacity; DROP TABLE claim_request_toleration;
	DROP TABLE claim_request_selector; DROP TABLE claim_request; DROP TABLE claim_spec; DROP TABLE device_taint;
	DROP TABLE device_counter; DROP TABLE device_capacity; DROP TABLE device_attribute; DROP TABLE slice_device;
	DROP TABLE slice_counter; DROP TABLE resource_slice; DROP TABLE device_class_selector; DROP TABLE device_class" ||
	fail "drop the DRA tables"
"$KPLAN" plan -q "$T/nodra.db" || fail "no DRA tables: plan"
is "$(qual "$T/nodra.db")" "$(qual "$T/memory.db")" "no DRA tables: the same quality rows"
is "$(strand "$T/nodra.db")" "$(strand "$T/memory.db")" "no DRA tables: the same stranded rows"

# ---- every run writes its own rows ----
"$KPLAN" plan -q --seed 7 "$T/cpu.db" || fail "cpu: second plan"
is "$(q "$T/cpu.db" "SELECT group_concat(run_id || ':' || count, ' ') FROM (SELECT run_id, count(*) AS count FROM plan_quality GROUP BY 1)")" \
	"1:2 2:2" "a second run appends its rows; the first run's stay"
run "$KPLAN" explain "$T/cpu.db" default/"$(q "$T/cpu.db" "SELECT pod FROM plan LIMIT 1")"
is "$rc:$(q "$T/cpu.db" "SELECT count(*) FROM plan_quality")" "0:4" "explain writes no quality rows"

# ---- a database made before the tables existed ----
cp "$T/memory.db" "$T/old.db"
sqlite3 "$T/old.db" "DROP TABLE plan_quality; DROP TABLE plan_stranded" || fail "drop the tables"
run "$KPLAN" report --format json "$T/old.db"
is "$rc" 0 "old database: the report still works"
like "$out" '"quality": [],' "old database: the quality section is empty"
"$KPLAN" plan -q "$T/old.db" || fail "old database: plan"
is "$(q "$T/old.db" "SELECT run_id, pool, bound FROM plan_quality")" "2,tall,3" \
	"old database: plan creates the tables and writes its rows"

# ---- the report's sections ----
"$KPLAN" report --format csv "$T/memory.db" >"$T/m.csv"
is "$(grep '^quality,' "$T/m.csv")" "quality,tall,3,3,3,requests:memory,0" "report csv: the quality section"
is "$(grep '^stranded,' "$T/m.csv")" "stranded,tall,cpu,3,24000,21000,21000,3,87.5,memory
stranded,tall,memory,3,25769803776,6442450944,0,0,0," "report csv: the stranded section"
like "$("$KPLAN" report "$T/cpu.db")" "small       4     4      3  requests:cpu    33.3%" "report text: used 4, bound 3, gap 33.3%"

# ---- examples/ ----
"$KPLAN" import -q "$T/ex.db" "$ROOT/examples/" || fail "import examples/"
"$KPLAN" plan -q "$T/ex.db" || fail "plan examples/"
sound "$T/ex.db" examples
is "$(qual "$T/ex.db" | cut -d, -f1-6)" "m5.2xlarge,5,5,32,5,requests:cpu
m5.4xlarge,1,1,5,1,requests:cpu
m5.xlarge,1,1,3,1,requests:cpu
p3.8xlarge,1,1,3,1,requests:cpu" "examples: pools by instance type; every node is needed"
is "$(q "$T/ex.db" "SELECT large_pods_bound FROM plan_quality WHERE pool = 'm5.4xlarge'")" 1 \
	"examples: urgent-report (10 cpu) needs more than half of gen-a-2"

# ---- generated clusters ----
for mix in plain full; do
	"$GEN" --nodes 200 --pods 4000 --mix $mix -o "$T/$mix.yaml" || fail "gen --mix $mix"
	"$KPLAN" import -q "$T/$mix.db" "$T/$mix.yaml" || fail "import $mix"
	"$KPLAN" plan -q "$T/$mix.db" || fail "plan $mix"
	sound "$T/$mix.db" "gen --mix $mix"
	"$KPLAN" plan -q --seed 3 "$T/$mix.db" || fail "plan $mix --seed 3"
	sound "$T/$mix.db" "gen --mix $mix, seed 3"
done
# plain: one pool of one node shape and no DaemonSet: requests:R is ceil(total / allocatable)
is "$(q "$T/plain.db" "SELECT count(DISTINCT allocatable) FROM node_resource WHERE resource IN ('cpu') ")" 1 "plain: one node shape"
is "$(q "$T/plain.db" "SELECT requests_bound FROM plan_quality WHERE run_id = 2")" \
	"$(q "$T/plain.db" "SELECT max((t + a - 1) / a) FROM (SELECT r.resource, sum(r.value) AS t,
	                   (SELECT max(allocatable) FROM node_resource x WHERE x.resource = r.resource) AS a
	                   FROM (SELECT pod.id AS pod_id FROM $APPS) a JOIN pod_request r ON r.pod_id = a.pod_id GROUP BY r.resource
	                   UNION ALL SELECT 'pods', count(*), (SELECT max(allocatable) FROM node_resource WHERE resource = 'pods') FROM $APPS)")" \
	"plain: requests bound = max over resources of ceil(total requests / allocatable)"
is "$(q "$T/full.db" "SELECT count(*) > 0 FROM plan_quality WHERE anti_affinity_bound > 1")" 1 \
	"full: required anti-affinity groups count"

# ---- openb: 1213 GPU nodes ----
OB=$KP_SHARED_DATA/openb
if [ -d "$OB" ]; then
	"$KPLAN" import -q "$T/ob.db" "$OB/openb_node_list_gpu_node.csv" "$OB/openb_pod_list_default.csv" || fail "openb import"
	"$KPLAN" plan -q "$T/ob.db" || fail "openb plan"
	sound "$T/ob.db" openb
else
	skip "shared data absent ($OB): no openb check" 6
fi

done_testing
