#!/usr/bin/env bash
# 49-counts.t — every number on plan's summary line equals the matching count
# in the tables it wrote (issue 14, "counts that agree"):
#
#   run N: P pending pods: B placed, U unschedulable; preemption: E evicted,
#   M moved[, I left to other schedulers]; K bound pods kept; X nodes; ...
#
#   B + M = bind + move rows; U = unschedulable rows; E = evict rows;
#   K = keep rows with a node (finished pods and other schedulers' pods are
#   keep rows without one); X = the run's nodes; P = B + U + I; and each equals
#   the run row's column.  A preemption victim is not kept (it said "8 bound
#   pods kept" where the table had 7 keep rows).
. "$(dirname "$0")/../lib.sh"

# num TEXT WORDS: the number before WORDS in TEXT (0 when absent)
num() {
	local v
	v=$(printf '%s\n' "$1" | grep -oE "[0-9]+ $2" | head -1 | cut -d' ' -f1)
	echo "${v:-0}"
}
# check DB DESC: the summary in $out against run max(id) of DB
check() {
	local db=$1 d=$2 line r
	line=$(printf '%s\n' "$out" | grep -E '^run [0-9]+:' | head -1)
	r=$(printf '%s\n' "$line" | sed -E 's/^run ([0-9]+):.*/\1/')
	is "$r" "$(q "$db" "SELECT max(id) FROM run")" "$d: the summary names the run written"
	local P B U E M I K X S
	P=$(num "$line" "pending pod")
	B=$(num "$line" "placed")
	U=$(num "$line" "unschedulable")
	E=$(num "$line" "evicted")
	M=$(num "$line" "moved")
	I=$(num "$line" "left to other schedulers")
	K=$(num "$line" "bound pods? kept")
	X=$(num "$line" "nodes?;")
	cnt() { q "$db" "SELECT count(*) FROM placement WHERE run_id = $r AND $1"; }
	S=$(num "$line" "back on the node")
	is "$((B + M - S))" "$(cnt "action IN ('bind', 'move')")" "$d: placed + moved - back on their node ($B + $M - $S) = bind and move rows"
	is "$U" "$(cnt "action = 'unschedulable'")" "$d: unschedulable ($U) = unschedulable rows"
	is "$E" "$(cnt "action = 'evict'")" "$d: evicted ($E) = evict rows"
	is "$((K + S))" "$(cnt "action = 'keep' AND node_id IS NOT NULL")" "$d: bound pods kept + back on their node ($K + $S) = keep rows with a node"
	is "$P" "$((B + U + I))" "$d: pending ($P) = placed + unschedulable + left to others"
	is "$X" "$(q "$db" "SELECT nodes FROM run WHERE id = $r")" "$d: nodes ($X) = the run's nodes"
	is "$B $U $K $E $M $I" "$(q "$db" "SELECT bound || ' ' || unschedulable || ' ' || kept || ' ' || evicted || ' ' ||
		moved || ' ' || ignored FROM run WHERE id = $r")" "$d: the run row holds the summary's numbers"
}

# a preemption victim (the issue's miscount)
db=$T/p.db
"$KPLAN" import -q "$db" "$ROOT/tests/data/plan/system-priority.yaml"
run "$KPLAN" plan "$db"
is "$rc" 0 "preemption: plan exits 0"
like "$out" "1 evicted" "preemption: one victim"
like "$out" "0 bound pods kept" "preemption: the victim is not counted as kept"
check "$db" "preemption"

# examples/: preemption with a move, a finished pod (a keep row without a node)
db=$T/e.db
"$KPLAN" import -q "$db" "$ROOT/examples"
run "$KPLAN" plan "$db"
is "$rc" 0 "examples: plan exits 0"
check "$db" "examples"
[ "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'keep' AND node_id IS NULL")" -gt 0 ]
ok $? "examples: some keep rows have no node (finished pods), and are not counted as kept"
run "$KPLAN" plan --no-preemption "$db"
check "$db" "examples --no-preemption"
node=$(q "$db" "SELECT n.name FROM node n JOIN pod p ON p.node_name = n.name GROUP BY n.name ORDER BY count(*) DESC, n.name LIMIT 1")
run "$KPLAN" plan --drain "$node" "$db"
is "$rc" 0 "examples --drain $node: plan exits 0"
check "$db" "examples --drain $node"
run "$KPLAN" plan --mode full "$db"
check "$db" "examples --mode full"

# a pod for another scheduler
cat >"$T/other.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: elsewhere, namespace: default}
spec:
  schedulerName: my-scheduler
  containers: [{name: c, image: x}]
EOF
"$KPLAN" import -q "$db" "$T/other.yaml"
run "$KPLAN" plan "$db"
like "$out" "1 left to other schedulers" "another scheduler's pod: said"
check "$db" "another scheduler's pod"

# a rebalance run
db=$T/r.db
"$KPLAN" import -q "$db" "$ROOT/tests/data/rebalance/high.yaml"
"$KPLAN" plan -q "$db"
run "$KPLAN" plan --mode rebalance "$db"
is "$rc" 0 "rebalance: plan exits 0"
check "$db" "rebalance"

done_testing
