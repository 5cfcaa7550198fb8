#!/usr/bin/env bash
# 41-nodes-to-score.t — plan --nodes-to-score all|adaptive|PCT: kube's
# percentageOfNodesToScore (numFeasibleNodesToFind: at least 100 nodes; 0 is
# adaptive, 50 - nodes/125 per cent, at least 5) over every profile, recorded
# in run.options and replayed by explain and fix
# (kube-scheduler-semantics.md §9; planner/plan_cycle.c nodes_to_find).
. "$(dirname "$0")/../lib.sh"
f="$T/c.yaml"
# 250 nodes of 4 cpu, 5 pods of 1 cpu, and one pod no node holds
awk 'BEGIN {
	for (i = 0; i < 250; i++)
		printf "apiVersion: v1\nkind: Node\nmetadata: {name: n%03d, labels: {kubernetes.io/hostname: n%03d}}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n", i, i
	for (i = 0; i < 5; i++)
		printf "apiVersion: v1\nkind: Pod\nmetadata: {name: p%d, namespace: default, creationTimestamp: \"2024-01-01T00:00:0%dZ\"}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}}}]}\n---\n", i, i
	printf "apiVersion: v1\nkind: Pod\nmetadata: {name: huge, namespace: default, creationTimestamp: \"2024-01-01T00:00:09Z\"}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: \"8\"}}}]}\n"
}' > "$f"
db="$T/n.db"
"$KPLAN" import -q "$db" "$f" || fail "import"
feasible() { q "$db" "SELECT group_concat(feasible, ' ') FROM (SELECT feasible FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE run_id = $1 AND p.name LIKE 'p%' ORDER BY p.name)"; }

run "$KPLAN" plan -q "$db"
is "$(feasible 1)" "250 250 250 250 250" "default: every node is evaluated"
run "$KPLAN" plan -q --nodes-to-score adaptive "$db"
is "$rc" 0 "adaptive: exit 0"
is "$(feasible 2)" "120 120 120 120 120" "adaptive at 250 nodes: 50 - 250/125 = 48 per cent, 120 nodes found"
is "$(q "$db" "SELECT json_extract(options, '\$.nodes_to_score') FROM run WHERE id = 2")" "adaptive" "run.options records it"
run "$KPLAN" plan -q --nodes-to-score 10 "$db"
is "$(feasible 3)" "100 100 100 100 100" "10 per cent of 250 is 25: at least 100"
run "$KPLAN" plan -q "$db" --nodes-to-score 60
is "$(feasible 4)" "150 150 150 150 150" "60 per cent: 150 (options anywhere on the line)"
run "$KPLAN" plan -q --nodes-to-score 100 "$db"
is "$(feasible 5)" "250 250 250 250 250" "100 per cent: every node"
is "$(q "$db" "SELECT feasible || ' ' || substr(reason, 1, 25) FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE run_id = 2 AND p.name = 'huge'")" \
	"0 0/250 nodes are available" "a pod no node holds: every node evaluated, as kube does when it finds too few"
# the rotating start: successive pods do not land on the same few nodes' first 120
is "$(q "$db" "SELECT count(DISTINCT node_id) FROM placement WHERE run_id = 2 AND action = 'bind'")" 5 "adaptive: five pods, five nodes"

# refused values: exit 64, nothing written
n=$(q "$db" "SELECT count(*) FROM run")
for v in 0 101 half -5; do
	run "$KPLAN" plan -q --nodes-to-score "$v" "$db"
	is "$rc" 64 "--nodes-to-score $v: exit 64"
done
like "$err" "is not all, adaptive or a percentage 1..100" "the message says what it takes"
is "$(q "$db" "SELECT count(*) FROM run")" "$n" "no run written"

# explain and fix replay the run with its --nodes-to-score
run "$KPLAN" explain --run 2 --format json "$db" default/p3
like "$out" '"agrees":true' "explain of the adaptive run agrees with it"
run "$KPLAN" explain --run 2 "$db" default/p3
like "$out" "120 of 250 nodes" "explain: the replay found 120 nodes, as the run did"
run "$KPLAN" fix --run 2 --no-record "$db"
is "$rc" 0 "fix of the adaptive run: exit 0"
done_testing
