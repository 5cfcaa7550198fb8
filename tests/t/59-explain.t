#!/usr/bin/env bash
# 59-explain.t — `kplan explain` replays what the run did, its scenario
# included (what-if options, --mode full, --strategy, --mode rebalance with
# its settings), so that the replay reaches the decision the run recorded,
# and says so when it cannot (the database changed since); and it says why
# with numbers: free vs requested per resource on the closest nodes (checked
# against node_usage), the matching pods and skew per spread domain and the
# pods an anti-affinity term matches (checked against the pods' labels),
# --top N, --format json; it works on a read-only mount.  Also the decisive
# reasons of unschedulable pods (issue 14, item 7): pod_failure.decisive, the
# report's reasons chart (a taint on a node the pods never wanted no longer
# leads it), and databases made before the column.
. "$(dirname "$0")/../lib.sh"
W="$TESTS_DIR/data/whatif"
X="$TESTS_DIR/data/explain"
db="$T/c.db"
"$KPLAN" import -q "$db" "$W/cluster.yaml" || fail "import cluster.yaml"
"$KPLAN" plan -q "$db" || fail "baseline plan"
# pj FILE EXPR: a value of the JSON in FILE (d), by a python expression
pj() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# the explained node lines: "node verdict" for each node listed under filters:
filters() { printf '%s\n' "$1" | sed -n '/^filters/,/^$/p' | grep -E '^  [^ ]' | sed -E 's/^  ([^ ]+) +/\1 /'; }
# one value, without csv's quoting
q1() { q "$@" | sed -e 's/^"\(.*\)"$/\1/' -e 's/""/"/g'; }
row() { q "${2:-$db}" "SELECT action || ' ' || COALESCE(node, '-') || COALESCE(' <' || from_node, '') FROM plan WHERE pod = '$1'"; }

# --- a pod moved by `plan --drain`: the recorded move, not "not scheduled"
run "$KPLAN" plan -q --drain n1 "$db"
is "$(row api-7d9f-aaaaa)" "move n2 <n1" "setup: --drain n1 moves api-7d9f-aaaaa to n2"
run "$KPLAN" explain "$db" shop/api-7d9f-aaaaa
is "$rc" 0 "explain of a drained pod exits 0"
unlike "$out" "not scheduled in this run" "explain of a drained pod replays the drain"
like "$out" "decision: move to n2 (from n1)" "explain of a drained pod shows the recorded move"
unlike "$out" "warning:" "the replay agrees with the recorded decision"
like "$out" "scenario: --drain n1)" "the first line names the scenario replayed"
like "$(filters "$out")" "n1 NodeUnschedulable: node(s) were unschedulable" "the drained node is cordoned in the replay"
run "$KPLAN" explain --format json "$db" shop/api-7d9f-aaaaa
printf '%s\n' "$out" >"$T/drain.json"
is "$(pj "$T/drain.json" '" ".join([d["decision"]["action"], d["decision"]["node"], d["decision"]["from_node"], str(d["agrees"]), d["run"]["scenario"]])')" \
	"move n2 n1 True --drain n1" "json: decision, from_node, agrees and scenario"
is "$(pj "$T/drain.json" '" ".join([d["recorded"]["action"], d["recorded"]["node"], d["recorded"]["from_node"]])')" \
	"$(row api-7d9f-aaaaa | sed 's/ </ /')" "json: recorded = the plan view's row"
drain_run=$(q "$db" "SELECT max(id) FROM run")

# the database changed since the run: the replay differs and says so
cp "$db" "$T/changed.db"
"$KPLAN" query --write "$T/changed.db" "UPDATE node SET unschedulable = 1 WHERE name = 'n2'" >/dev/null
run "$KPLAN" explain "$T/changed.db" shop/api-7d9f-aaaaa
like "$out" "warning: run $drain_run recorded 'move n2' — the database changed since that run" \
	"a replay that differs from the recorded decision says so"
like "$out" "decision: move to n3 (from n1)" "... and shows the fresh decision"

# --- --add-nodes: the pod that fits only on the added node
run "$KPLAN" plan -q --add-nodes "$W/big-node.yaml" "$db"
is "$(row big)" "bind big-whatif-1" "setup: --add-nodes places big on the added node"
run "$KPLAN" explain "$db" shop/big
like "$out" "decision: bind to big-whatif-1" "explain after --add-nodes binds to the added node"
unlike "$out" "warning:" "explain after --add-nodes: the replay agrees"
like "$(filters "$out" | head -1)" "big-whatif-1 passed" "the added node is the closest (it passed)"
# the template is read again: from another directory a relative path is not found
(cd "$W" && "$KPLAN" plan -q --add-nodes big-node.yaml:2 "$db")
(cd "$W" && "$KPLAN" explain "$db" shop/big) >"$T/rel.txt" 2>&1
like "$(cat "$T/rel.txt")" "scenario: --add-nodes big-node.yaml:2" "explain in the directory plan ran in reads the template again"
run "$KPLAN" explain "$db" shop/big
is "$rc" 1 "explain elsewhere: the template cannot be read: exit 1"
like "$err" "cannot replay run $(q "$db" "SELECT max(id) FROM run"): --add-nodes 'big-node.yaml:2': cannot open 'big-node.yaml'" \
	"... and the message says which run and file"

# --- --mode full --strategy most: a bound pod placed again on its own node
run "$KPLAN" plan -q --mode full --strategy most "$db"
is "$(row api-7d9f-aaaaa)" "keep n1" "setup: --mode full keeps api-7d9f-aaaaa on n1"
run "$KPLAN" explain "$db" shop/api-7d9f-aaaaa
like "$out" "scenario: --mode full --strategy most)" "explain after --mode full replays it, with the strategy"
like "$out" "decision: keep on n1 (placed on the node it was on)" "explain after --mode full: the pod was planned, and kept"
unlike "$out" "warning:" "explain after --mode full: the replay agrees"
like "$out" "NodeResourcesFit" "the scores show NodeResourcesFit (MostAllocated under --strategy most)"
run "$KPLAN" explain --format json "$db" shop/db-0
printf '%s\n' "$out" >"$T/full.json"
is "$(pj "$T/full.json" 'd["run"]["mode"] + " " + d["decision"]["action"] + " " + str(d["agrees"])')" "full bind True" \
	"json after --mode full: mode, decision, agrees"

# every pod of every run so far (baseline, drain, add-nodes twice, mode full; in the
# directory of the template's relative path): the replay agrees
disagree=""
for r in $(q "$db" "SELECT id FROM run ORDER BY id"); do
	for p in $(q "$db" "SELECT namespace || '/' || pod FROM plan_all WHERE run_id = $r"); do
		a=$(cd "$W" && "$KPLAN" explain --format json --run "$r" "$db" "$p" 2>&1 | python3 -c 'import json, sys; print(json.load(sys.stdin)["agrees"])' 2>&1)
		[ "$a" = True ] || disagree="$disagree run $r $p: $a;"
	done
done
is "$disagree" "" "every pod of every what-if run: explain's replay reaches the recorded decision"

# --- a rebalance run, with a limit: only the recorded move is replayed
R="$TESTS_DIR/data/rebalance"
rdb="$T/r.db"
"$KPLAN" import -q "$rdb" "$R/low.yaml" || fail "import low.yaml"
run "$KPLAN" plan -q --mode rebalance --strategies LowNodeUtilization --max-moves 1 "$rdb"
moved=$(q "$rdb" "SELECT pod FROM plan WHERE action = 'move'")
stayed=$(q "$rdb" "SELECT name FROM pod WHERE name IN ('l-3', 'l-4') AND name <> '$moved'")
is "$(q "$rdb" "SELECT count(*) FROM plan WHERE action = 'move'")" 1 "setup: --max-moves 1 moves one pod ($moved)"
run "$KPLAN" explain "$rdb" "shop/$moved"
like "$out" "scenario: --mode rebalance --strategies LowNodeUtilization)" "explain of a rebalance move replays the rebalance"
like "$out" "decision: move to $(q "$rdb" "SELECT node FROM plan WHERE pod = '$moved'") (from n1)" "... and shows the recorded move"
like "$(filters "$out")" "n1 not a target of the move" "the node the pod leaves is not a target"
unlike "$out" "warning:" "explain of a rebalance move: the replay agrees"
run "$KPLAN" explain "$rdb" "shop/$stayed"
unlike "$out" "warning:" "the pod --max-moves kept in place: the replay keeps it too (the limit is replayed)"
like "$out" "(recorded action: keep)" "... recorded keep"

# --- pods the run did not schedule: another scheduler's, one the scenario removed
cat >"$T/other.yaml" <<'EOF'
apiVersion: v1
kind: Node
metadata: {name: n}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: theirs, namespace: default}
spec:
  schedulerName: other
  containers: [{name: c, image: x}]
EOF
"$KPLAN" import -q "$T/other.db" "$T/other.yaml" && "$KPLAN" plan -q "$T/other.db" 2>/dev/null
run "$KPLAN" explain "$T/other.db" default/theirs
is "$out" "pod default/theirs, run 1 (replayed with seed 1, configuration: default; kube 1.37)
not scheduled in this run: not planned: schedulerName 'other' matches no profile (recorded action: keep)" \
	"another scheduler's pod: not scheduled, and no warning (placement records it as keep)"
cp "$db" "$T/removed.db"
"$KPLAN" plan -q --remove-nodes topology.kubernetes.io/zone=b "$T/removed.db"
run "$KPLAN" explain "$T/removed.db" kube-system/agent-j76tz
like "$out" "not scheduled in this run: the run's scenario removed it (recorded action: none)" \
	"a DaemonSet pod gone with its removed node: the scenario removed it"
run "$KPLAN" explain "$T/removed.db" shop/pinned
like "$out" "decisive: 2 node(s) didn't match Pod's node affinity/selector (no node passes the static filters" \
	"the pod pinned to the removed zone: the static reason decides"

# --- numbers: resources, spread, anti-affinity (tests/data/explain)
edb="$T/e.db"
"$KPLAN" import -q "$edb" "$X/cluster.yaml" || fail "import explain/cluster.yaml"
run "$KPLAN" plan -q "$edb"
is "$(row cpu-big-1 "$edb")|$(row sx-3 "$edb")|$(row solo "$edb")" "unschedulable -|bind b1|bind a2" \
	"setup: cpu-big-1 fits nowhere, sx-3 goes to zone b, solo to the node without a db pod"
run "$KPLAN" explain "$edb" shop/cpu-big-1
like "$out" "decisive: 3 Insufficient cpu (the nodes that pass every static filter" "explain names the decisive reason"
is "$(filters "$out" | cut -d' ' -f1 | tr '\n' ' ')" "b1 a2 a1 gpu " \
	"closest first: the smallest cpu shortfall first, the tainted node last"
# free = allocatable - requested after the run, per node (node_usage)
for n in a1 a2 b1; do
	free=$(q "$edb" "SELECT printf('%g', (allocatable - requested_after) / 1000.0) FROM node_usage WHERE node = '$n' AND resource = 'cpu'")
	like "$out" "  $n                           NodeResourcesFit: Insufficient cpu
      cpu: requested 3, free $free of 4 (short " "$n: cpu requested 3, free $free of 4 (node_usage)"
done
# a node too small for the pod even when empty comes after one that is only busy
cat >"$T/small.yaml" <<'EOF'
apiVersion: v1
kind: Node
metadata: {name: small}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: busy}
status: {allocatable: {cpu: "8", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: load, namespace: default}
spec:
  nodeName: busy
  containers: [{name: c, image: load, resources: {requests: {cpu: "7"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: three, namespace: default}
spec:
  containers: [{name: c, image: three, resources: {requests: {cpu: "3"}}}]
EOF
"$KPLAN" import -q "$T/small.db" "$T/small.yaml" && "$KPLAN" plan -q "$T/small.db"
run "$KPLAN" explain "$T/small.db" default/three
is "$(filters "$out" | cut -d' ' -f1 | tr '\n' ' ')" "busy small " \
	"closest: busy (short 2 of 3) before small (short 1, but 2 cpus in all: never fits)"
run "$KPLAN" explain --top 2 "$edb" shop/cpu-big-1
like "$out" "filters (the 2 closest of 4 nodes):" "--top 2 says how many of how many"
is "$(filters "$out" | cut -d' ' -f1 | tr '\n' ' ')" "b1 a2 " "--top 2 shows the two closest nodes"
run "$KPLAN" explain --top 2 --format json "$edb" shop/cpu-big-1
printf '%s\n' "$out" >"$T/big.json"
python3 -c 'import json, sys; json.load(sys.stdin)' <"$T/big.json"
ok $? "--format json is one JSON document"
is "$(pj "$T/big.json" '" ".join(n["node"] for n in d["nodes"]) + " " + str(d["nodes_total"]) + " " + d["decision"]["action"]')" \
	"b1 a2 4 unschedulable" "json --top 2: the two closest nodes of 4, unschedulable"
is "$(pj "$T/big.json" '" ".join(str(x) for r in d["nodes"][0]["resources"] if r["resource"] == "cpu" for x in (r["requested"], r["allocatable"] - r["used"], r["free"], r["short"]))')" \
	"$(q "$edb" "SELECT '3000 ' || (allocatable - requested_after) || ' ' || (allocatable - requested_after) || ' ' || (3000 - allocatable + requested_after)
	             FROM node_usage WHERE node = 'b1' AND resource = 'cpu'")" "json: b1 cpu requested, free and short (node_usage)"
is "$(pj "$T/big.json" 'd["nodes"][0]["filters"][0]["plugin"] + ": " + d["nodes"][0]["filters"][0]["reason"]')" \
	"NodeResourcesFit: Insufficient cpu" "json: the node's filter verdict"
is "$(pj "$T/big.json" 'd["decisive"]')" "3 Insufficient cpu" "json: decisive"
# spread: per domain, the matching pods (pods labelled app=sx on the zone's nodes)
run "$KPLAN" explain "$edb" shop/sx-3
want=$(q1 "$edb" "SELECT group_concat(z || ' ' || n || ' (skew ' || (n + 1) || ')', ', ') FROM (SELECT z.value AS z, count(p.id) AS n
	FROM node_label z JOIN node nd ON nd.id = z.node_id LEFT JOIN pod p ON p.node_name = nd.name
	AND EXISTS (SELECT 1 FROM pod_label l WHERE l.pod_id = p.id AND l.key = 'app' AND l.value = 'sx')
	WHERE z.key = 'topology.kubernetes.io/zone' GROUP BY z.value ORDER BY z.value)")
like "$out" "topology.kubernetes.io/zone, maxSkew 1, minimum 0: $want" "spread: matching pods and skew per domain ($want)"
like "$out" "  a2                           PodTopologySpread: node(s) didn't match pod topology spread constraints
      spread topology.kubernetes.io/zone=a: 2 matching pods + 1 - minimum 0 = skew 3 > maxSkew 1" \
	"spread: the node's domain, its pods and skew against maxSkew"
like "$out" "also PodTopologySpread" "a node failing two filters names the second too"
run "$KPLAN" explain --format json "$edb" shop/sx-3
printf '%s\n' "$out" >"$T/sx.json"
is "$(pj "$T/sx.json" '" ".join("%s=%d/%s" % (x["domain"], x["pods"], x["skew"]) for x in d["spread"][0]["domains"])')" \
	"a=2/3 b=0/1 c=0/1" "json: spread domains, pods and skew"
is "$(pj "$T/sx.json" '[(s["domain"], s["skew"], s["fails"]) for n in d["nodes"] if n["node"] == "a2" for s in n["spread"]][0]')" \
	"('a', 3, True)" "json: a2's domain fails the constraint"
# anti-affinity: the matching pods in the node's domain
run "$KPLAN" explain "$edb" shop/solo
like "$out" "  b1                           InterPodAffinity: node(s) didn't match pod anti-affinity rules
      anti-affinity kubernetes.io/hostname=b1: 1 matching pod: $(q "$edb" "SELECT p.namespace || '/' || p.name FROM pod p
	JOIN pod_label l ON l.pod_id = p.id AND l.key = 'app' AND l.value = 'db' WHERE p.node_name = 'b1'") (b1)" \
	"anti-affinity: the db pod on b1 is named"
run "$KPLAN" explain --format json "$edb" shop/solo
printf '%s\n' "$out" >"$T/solo.json"
is "$(pj "$T/solo.json" '[(a["kind"], a["domain"], a["matching_pods"], a["pods"], a["fails"]) for n in d["nodes"] if n["node"] == "b1" for a in n["affinity"]]')" \
	"[('anti-affinity', 'b1', 1, 'shop/db-b (b1)', True)]" "json: b1's anti-affinity term, its matching pod"
is "$(pj "$T/solo.json" 'd["nodes"][0]["node"] + " " + str(d["nodes"][0]["feasible"]) + " " + str(d["nodes"][1]["closest"])')" \
	"a2 True 2" "json: the chosen node first, ranks from 1"
# existing pods' anti-affinity: the placed pod whose term selects the pod is named
"$KPLAN" import -q "$T/ea.db" "$TESTS_DIR/fuzz/corpus/yaml/e2e_t-ipa-existing-anti-affinity.yaml" && "$KPLAN" plan -q "$T/ea.db"
run "$KPLAN" explain --format json "$T/ea.db" default/p2
printf '%s\n' "$out" >"$T/ea.json"
is "$(pj "$T/ea.json" '"; ".join("%s %s %s=%s %s" % (n["node"], a["kind"], a["topology_key"], a["domain"], a["pods"]) for n in d["nodes"] for a in n["affinity"])')" \
	"nodeA existing-anti-affinity zone=z1 default/eA (nodeA); nodeB existing-anti-affinity zone=z2 default/eB (nodeB)" \
	"json: existing pods' anti-affinity names the pod on each rejecting node"
run "$KPLAN" explain --top 0 "$edb" shop/solo
is "$rc" 64 "--top 0: usage error"
run "$KPLAN" explain --format yaml "$edb" shop/solo
like "$rc:$err" "64:kplan explain: unknown format 'yaml' (want text or json)" "an unknown --format: usage error"

# --- item 7: the decisive reason per unschedulable pod
is "$(q "$edb" "SELECT group_concat(p.name || ':' || f.reason || '=' || f.decisive, '; ') FROM (SELECT * FROM pod_failure ORDER BY pod_id, reason) f
	JOIN pod p ON p.id = f.pod_id")" \
	"cpu-big-1:Insufficient cpu=1; cpu-big-1:node(s) had untolerated taint(s)=0; cpu-big-2:Insufficient cpu=1; cpu-big-2:node(s) had untolerated taint(s)=0; mem-big:Insufficient memory=1; mem-big:node(s) had untolerated taint(s)=0" \
	"pod_failure.decisive: the shortage decides, not the taint of the gpu node"
"$KPLAN" report --format json -o "$T/rep.json" "$edb" >/dev/null 2>&1 || fail "report --format json"
is "$(pj "$T/rep.json" '"; ".join("%s %d/%d" % (r["reason"], r["pods"], r["pods_any"]) for r in d["unschedulable_reasons"])')" \
	"Insufficient cpu 2/2; Insufficient memory 1/1; node(s) had untolerated taint(s) 0/3" \
	"report json: pods counted by their decisive reason; the taint (given for 3 pods) comes last"
run "$KPLAN" report --no-timing "$edb"
like "$out" "reason                            plugin            pods  pods any  node rejections
--------------------------------  ----------------  ----  --------  ---------------
Insufficient cpu                  NodeResourcesFit     2         2                6" "report text: Insufficient cpu leads the reasons"
# no node passes the static filters: the static reasons decide (planned as kube
# 1.34, whose taint reasons name the taint: two distinct static reasons)
sdb="$T/s.db"
"$KPLAN" import -q "$sdb" "$X/cluster.yaml"
"$KPLAN" query --write "$sdb" "INSERT INTO node_taint(node_id, seq, key, value, effect) SELECT id, 9, 'maint', 'yes', 'NoSchedule'
	FROM node WHERE name <> 'gpu'" >/dev/null
"$KPLAN" plan -q --kube-version 1.34 "$sdb"
is "$(q "$sdb" "SELECT group_concat(f.nodes || ' ' || f.reason || '=' || f.decisive, '; ') FROM (SELECT * FROM pod_failure ORDER BY reason) f
	JOIN pod p ON p.id = f.pod_id WHERE p.name = 'cpu-big-1'")" \
	"1 node(s) had untolerated taint {dedicated: gpu}=1; 3 node(s) had untolerated taint {maint: yes}=1" \
	"no node passes the static filters: every static reason is decisive"
run "$KPLAN" explain "$sdb" shop/cpu-big-1
like "$out" "decisive: 1 node(s) had untolerated taint {dedicated: gpu}, 3 node(s) had untolerated taint {maint: yes} (no node passes the static filters" \
	"explain: the static reasons, when no node passes the static filters"
# a database made before the column: the report derives it; the next plan adds it
odb="$T/old.db"
cp "$edb" "$odb"
sqlite3 "$odb" "ALTER TABLE pod_failure DROP COLUMN decisive"
"$KPLAN" report --format json -o "$T/old.json" "$odb" >/dev/null 2>&1 || fail "report of a database without pod_failure.decisive"
is "$(pj "$T/old.json" 'd["unschedulable_reasons"]')" "$(pj "$T/rep.json" 'd["unschedulable_reasons"]')" \
	"without pod_failure.decisive the report derives the same counts"
"$KPLAN" plan -q "$odb"
is "$(q "$odb" "SELECT count(decisive) || ' ' || count(*) FROM pod_failure")" "6 12" \
	"a plan on it adds the column: set in the new run, NULL in the old one"
"$KPLAN" report --format json --run 1 -o "$T/old1.json" "$odb" >/dev/null 2>&1
is "$(pj "$T/old1.json" 'd["unschedulable_reasons"]')" "$(pj "$T/rep.json" 'd["unschedulable_reasons"]')" \
	"the old run's NULLs: derived the same way"

# --- explain on a read-only mount: TEMP tables only, nothing written
src=$T/rosrc mnt=$T/romnt
mkdir -p "$src" "$mnt"
cp "$db"* "$src/"
"$KPLAN" query "$src/c.db" "SELECT 1" >/dev/null
before=$(digest "$src/c.db")
ro() { # ro CMD...: run CMD with $src read-only at $mnt, in a mount namespace of its own
	unshare -m sh -c 'mount --bind "$1" "$2" && mount -o remount,ro,bind "$2" && shift 2 && exec "$@"' sh "$src" "$mnt" "$@"
}
if unshare -m sh -c "mount --bind '$src' '$mnt' && mount -o remount,ro,bind '$mnt' && ! touch '$mnt/x'" 2>/dev/null; then
	run ro "$KPLAN" explain --run "$drain_run" "$mnt/c.db" shop/api-7d9f-aaaaa
	is "$rc" 0 "read-only mount: explain of the drain run exits 0"
	like "$out" "decision: move to n2 (from n1)" "read-only mount: the scenario is replayed in TEMP tables"
	unlike "$out" "warning:" "read-only mount: the replay agrees"
	run ro "$KPLAN" explain --format json "$mnt/c.db" shop/big
	is "$rc" 0 "read-only mount: explain --format json of the latest run (--mode full) exits 0"
	run ro "$KPLAN" plan "$mnt/c.db"
	like "$rc $err" "1 " "read-only mount: plan refuses (the mount is read-only indeed)"
else
	skip "mount is not permitted here: no read-only mount" 5
fi
is "$(digest "$src/c.db")" "$before" "explain wrote nothing to the database file"

done_testing
