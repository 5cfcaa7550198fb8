#!/usr/bin/env bash
# 45-capacity-survive.t — `kplan capacity --survive` (issue 20): each domain
# is evaluated from the baseline kept in memory, scheduling only the lost
# domain's pods (with the pending ones, preemption and batch retry); the
# answer must be, domain by domain, that of the full method of the same
# question: `kplan plan` (the baseline, recorded), then `kplan plan
# --from-run BASE --remove-nodes DOMAIN` — the pods it leaves without a node
# that the baseline placed (lost), those it places that the baseline did
# not (gained), the imported pods without a node (unschedulable), the
# verdict.  On hand-made clusters (spread by zone, priorities) and generated
# ones (--mix full: node affinity, required anti-affinity, zone spread
# DoNotSchedule, priorities that force preemption; --mix plain), with and
# without preemption.  Then: --survive-replan keeps the old method (every pod
# planned again) and says so; a cluster the incremental evaluation does not
# model (gangs, volumes) is re-planned and says why.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data"

# compare DB NAME KIND [OPTIONS...]: capacity --survive KIND against the full method
compare() {
	local db=$1 name=$2 kind=$3
	shift 3
	"$KPLAN" capacity "$db" --survive "$kind" --no-record --format json "$@" >"$T/cap.json" 2>/dev/null
	ok $? "$name: capacity --survive $kind $* answered"
	is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["method"])' "$T/cap.json" 2>&1)" incremental \
		"$name: evaluated incrementally"
	# the options that go to plan too (not --limit)
	local popts=() a
	for a in "$@"; do
		case $a in --limit|[0-9]*) ;; *) popts+=("$a") ;; esac
	done
	"$KPLAN" plan -q "${popts[@]}" "$db" 2>/dev/null
	local base
	base=$(q "$db" "SELECT max(id) FROM run")
	local label=""
	case $kind in node) ;; zone) label=topology.kubernetes.io/zone ;; *) label=$kind ;; esac
	: >"$T/runs.txt"
	for dom in $(python3 -c 'import json,sys; print(" ".join(r["domain"] for r in json.load(open(sys.argv[1]))["results"]))' "$T/cap.json"); do
		local sel=$dom
		[ -n "$label" ] && sel="$label=$dom"
		"$KPLAN" plan -q "${popts[@]}" --from-run "$base" --remove-nodes "$sel" "$db" 2>/dev/null
		echo "$dom $(q "$db" "SELECT max(id) FROM run")" >>"$T/runs.txt"
	done
	python3 - "$db" "$base" "$T/cap.json" "$T/runs.txt" "$label" >"$T/cmp.txt" 2>&1 <<'PY'
import json, sqlite3, sys
db, base, capf, runsf, label = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
con = sqlite3.connect(db)
PLACED = ("keep", "bind", "move")
# (ns, pod) -> (action, pod id): capacity names the first 50 in pod order
def rows(run):
    return {(ns, pod): (act, pid) for ns, pod, act, pid in con.execute(
        "SELECT p.namespace, p.name, pl.action, p.id FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE pl.run_id = ?",
        (run,))}
b = rows(base)
cap = {r["domain"]: r for r in json.load(open(capf))["results"]}
bad, evictions = [], 0
for line in open(runsf):
    dom, run = line.split()
    m = rows(int(run))
    evictions += con.execute("SELECT count(*) FROM placement WHERE run_id = ? AND action = 'evict'", (int(run),)).fetchone()[0]
    first = lambda ks: sorted(sorted(ks, key=lambda k: m[k][1])[:50])
    lost = [k for k, (a, _) in m.items() if a not in PLACED and k in b and b[k][0] in PLACED]
    gained = [k for k, (a, _) in m.items() if a in PLACED and k in b and b[k][0] not in PLACED]
    unsched = sum(1 for a, _ in m.values() if a in ("unschedulable", "evict"))
    # headroom: cpu and memory free (allocatable - requests, 0 when over) over the nodes left
    gone = {n for (n,) in (con.execute("SELECT name FROM node WHERE name = ?", (dom,)) if not label else
                          con.execute("SELECT n.name FROM node n JOIN node_label l ON l.node_id = n.id "
                                      "WHERE l.key = ? AND l.value = ?", (label, dom)))}
    free = {}
    for node, res, alloc, used in con.execute(
            "SELECT n.name, nr.resource, nr.allocatable, (SELECT COALESCE(SUM(q.value), 0) FROM placement pl "
            "JOIN pod p ON p.id = pl.pod_id JOIN class_request q ON q.class_id = p.class_id AND q.resource = nr.resource "
            "WHERE pl.run_id = ? AND pl.node_id = n.id AND pl.action IN ('keep', 'bind', 'move')) "
            "FROM node n JOIN node_resource nr ON nr.node_id = n.id WHERE nr.resource IN ('cpu', 'memory')", (int(run),)):
        if node not in gone:
            free[res] = free.get(res, 0) + max(alloc - used, 0)
    r = cap[dom]
    # kube's reason of each lost pod left unschedulable ("0/N nodes are available: ...", N the nodes left)
    why = {(ns, pod): reason for ns, pod, act, reason in con.execute(
        "SELECT namespace, pod, action, reason FROM plan WHERE run_id = ?", (int(run),)) if act == "unschedulable"}
    for p in r["lost"]:
        k = (p["namespace"], p["pod"])
        if k in why and why[k] != p["reason"]:
            bad.append("%s: %s/%s: capacity says %r, plan %r" % (dom, k[0], k[1], p["reason"], why[k]))
    got = (sorted((p["namespace"], p["pod"]) for p in r["lost"]), sorted((p["namespace"], p["pod"]) for p in r["gained"]),
           r["pods_lost"], r["pods_gained"], r["unschedulable"], r["survives"],
           {h["resource"]: h["free"] for h in r["headroom"] if h["resource"] in ("cpu", "memory")})
    want = (first(lost), first(gained), len(lost), len(gained), unsched, not lost, free)
    if got != want:
        bad.append("%s: capacity %s, plan --from-run %s" % (dom, got, want))
print("domains %d evictions %d" % (len(cap), evictions))
for x in bad:
    print(x)
PY
	local summary
	summary=$(head -1 "$T/cmp.txt")
	is "$(tail -n +2 "$T/cmp.txt")" "" "$name: every domain as plan --from-run BASE --remove-nodes DOMAIN ($summary)"
	EVICTIONS=$(sed -n 's/.* evictions \([0-9]*\).*/\1/p' "$T/cmp.txt")
}

# --- hand-made clusters
db=$T/cap.db
"$KPLAN" import -q "$db" "$D/capacity/cluster.yaml" "$D/capacity/pending.yaml"
compare "$db" capacity zone
compare "$db" capacity node
compare "$db" "capacity, no preemption" node --no-preemption
# the question differs from re-planning: losing zone a, the baseline placed
# web-...-pk9vd on n3 (zone b); re-planned, b1 (displaced from zone a,
# earlier in the queue) takes its room and the web pod is lost; kept, it stays
run "$KPLAN" capacity "$db" --survive zone --no-record --format json --limit 1
is "$(printf '%s' "$out" | python3 -c 'import json,sys; r = json.load(sys.stdin)["results"][0]; print(r["domain"], " ".join(sorted(p["pod"] for p in r["lost"])))')" \
	"a b1 b2" "zone a: the displaced pods b1 and b2 are lost, the web pod on n3 stays"
run "$KPLAN" capacity "$db" --survive zone --no-record --format json --limit 1 --survive-replan
is "$(printf '%s' "$out" | python3 -c 'import json,sys; a = json.load(sys.stdin); r = a["results"][0]; print(a["method"], a["replan_why"], r["domain"], " ".join(sorted(p["pod"].split("-")[0] for p in r["lost"])))')" \
	"replan --survive-replan a b2 web" "--survive-replan: every pod planned again, the web pod placed on n3 lost"
run "$KPLAN" capacity "$db" --survive zone --no-record --survive-replan
like "$out" "re-planned: every pod planned again without each zone, the baseline's placements not kept (--survive-replan)" \
	"--survive-replan: the text says so"
run "$KPLAN" capacity "$db" --survive-replan --no-record
is "$rc" 64 "--survive-replan without --survive: usage error"

# a gated pod and a DaemonSet pod bound to a lost node: counted (unschedulable) or gone with it, as plan does
cat >"$T/extra.yaml" <<'Y'
apiVersion: v1
kind: Pod
metadata: {name: gated, namespace: default}
spec:
  schedulingGates: [{name: example.com/wait}]
  containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: agent-n1
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u1, controller: true}]
spec:
  nodeName: n1
  containers: [{name: c, image: c, resources: {requests: {cpu: 100m}}}]
Y
edb=$T/extra.db
"$KPLAN" import -q "$edb" "$D/capacity/cluster.yaml" "$D/capacity/pending.yaml" "$T/extra.yaml"
compare "$edb" "gated and DaemonSet pods" node
compare "$edb" "gated and DaemonSet pods" zone

zdb=$T/zones.db
"$KPLAN" import -q "$zdb" "$D/capacity/zones.yaml"
compare "$zdb" zones zone
compare "$zdb" zones rack
compare "$zdb" zones node

# a node that lists no images lost: every node's ImageLocality score changes
# (it divides by the nodes left); the baseline's scores kept, a pod is lost
idb=$T/images.db
"$KPLAN" import -q "$idb" "$D/capacity/images.yaml"
compare "$idb" "images on some nodes" node

# --- generated clusters
if [ -x "$ROOT/build/bench/gen" ]; then
	total=0
	for seed in 3 4; do
		"$ROOT/build/bench/gen" --nodes 40 --pods 1100 --seed $seed --mix full -o "$T/full$seed.yaml" >/dev/null 2>&1
		g=$T/full$seed.db
		"$KPLAN" import -q "$g" "$T/full$seed.yaml"
		compare "$g" "full mix seed $seed" zone
		total=$((total + EVICTIONS))
		compare "$g" "full mix seed $seed" node --limit 15
		total=$((total + EVICTIONS))
		compare "$g" "full mix seed $seed, no preemption" node --limit 8 --no-preemption
	done
	ok $((total == 0)) "the full mix's domains preempt ($total evictions in the plans compared)"
	"$ROOT/build/bench/gen" --nodes 30 --pods 900 --seed 2 --mix plain -o "$T/plain.yaml" >/dev/null 2>&1
	"$KPLAN" import -q "$T/plain.db" "$T/plain.yaml"
	compare "$T/plain.db" "plain mix" node
else
	skip "build/bench/gen not built" 28
fi

# --- what the incremental evaluation does not model: re-planned, and why
gdb=$T/gang.db
"$KPLAN" import -q "$gdb" "$D/gang/survive.yaml"
run "$KPLAN" capacity --survive node --kube-version 1.37 --feature-gates GenericWorkload=true --no-record --format json "$gdb"
is "$(printf '%s' "$out" | python3 -c 'import json,sys; a = json.load(sys.stdin); print(a["method"], a["replan_why"])')" \
	"replan gang scheduling (PodGroups)" "gangs: re-planned, and why"
vdb=$T/vol.db
"$KPLAN" import -q "$vdb" "$D/volumes/zonal-sts.yaml"
run "$KPLAN" capacity --survive zone --no-record "$vdb"
like "$out" "re-planned: every pod planned again without each zone, the baseline's placements not kept (volumes" \
	"volumes: re-planned, the text says why"

done_testing
