#!/usr/bin/env bash
# 41-plan-cli.t — `kplan plan` and `kplan explain` from the command line:
# summary line, exit codes, determinism, configuration errors, SQL
# extenders, run history, explain output.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/plan"
db="$T/p.db"
"$KPLAN" import -q "$db" "$D/three-nodes.yaml" || fail "import"

run "$KPLAN" plan "$db"
is "$rc" 0 "plan exits 0 with unschedulable pods"
like "$out" "run 1: 2 pending pods: 1 placed, 1 unschedulable" "summary line counts"
unlike "$err" "warning" "no warnings for a plain cluster"
is "$(q "$db" "SELECT reason FROM plan WHERE pod = 'big'")" \
	"0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.." \
	"kube-style message, with DefaultPreemption's verdict (kube 1.28-1.31 end it with two periods)"
is "$(q "$db" "SELECT nodes || ' ' || plugin || ' ' || reason FROM pod_failure")" "3 NodeResourcesFit Insufficient cpu" "pod_failure breakdown"
is "$(q "$db" "SELECT count(*) FROM unschedulable")" 1 "unschedulable view"

run "$KPLAN" plan --fail-on-unschedulable -q "$db"
is "$rc" 2 "--fail-on-unschedulable exits 2"
is "$out" "" "--quiet prints no summary"
is "$(q "$db" "SELECT count(*) FROM run")" 2 "every plan appends a run"
is "$(q "$db" "SELECT count(DISTINCT run_id) FROM placement")" 2 "placements of both runs are kept"

# determinism: same database, same options, same tables
"$KPLAN" plan -q --seed 42 "$db" 2>/dev/null
"$KPLAN" plan -q --seed 42 "$db" 2>/dev/null
is "$(q "$db" "SELECT count(*) FROM placement a JOIN placement b ON a.pod_id = b.pod_id AND b.run_id = 4
               WHERE a.run_id = 3 AND (a.node_id IS NOT b.node_id OR a.action <> b.action OR a.score IS NOT b.score)")" 0 \
	"the same seed gives identical placements"
is "$(q "$db" "SELECT seed FROM run WHERE id = 4")" 42 "the seed is recorded"
is "$(q "$db" "SELECT json_extract(options, '\$.seed') FROM run WHERE id = 4")" 42 "options are recorded as JSON"

# usage errors
run "$KPLAN" plan --seed banana "$db"
is "$rc" 64 "bad --seed: 64"
run "$KPLAN" plan
is "$rc" 64 "plan without DB: 64"
run "$KPLAN" plan "$T/none/x.db"
is "$rc" 1 "missing directory: 1"

# configuration errors name the offender; nothing is written
before=$(q "$db" "SELECT count(*) FROM run")
run "$KPLAN" plan --config "$D/bad-unknown-plugin.yaml" "$db"
is "$rc" 1 "unknown plugin: exit 1"
like "$err" "plugin 'NodeNumber' is not an in-tree kube-scheduler plugin" "unknown plugin is named"
like "$err" "bad-unknown-plugin.yaml:8:" "its position is given"
run "$KPLAN" plan --config "$D/bad-unknown-field.yaml" "$db"
is "$rc" 1 "unknown field: exit 1"
like "$err" "unknown field 'bogus'" "unknown field is named"
run "$KPLAN" plan --config "$T/missing.yaml" "$db"
is "$rc" 1 "missing config file: exit 1"
like "$err" "cannot open" "missing config file is named"
is "$(q "$db" "SELECT count(*) FROM run")" "$before" "failed plans write nothing"

# every invalid configuration in tests/data/config is refused with its position
for f in "$TESTS_DIR"/data/config/bad-*.yaml; do
	run "$KPLAN" plan -q --config "$f" "$db"
	is "$rc" 1 "$(basename "$f"): exit 1"
	like "$err" "$f:" "$(basename "$f"): the message names the file"
	like "$err" "kplan: nothing was written" "$(basename "$f"): nothing written"
done
is "$(q "$db" "SELECT count(*) FROM run")" "$before" "refused configurations write nothing"

# more profiles than kplan reads (256) are refused at the list
{
	printf 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n'
	i=0; while [ $i -lt 257 ]; do echo "- schedulerName: s$i"; i=$((i + 1)); done
} >"$T/many-profiles.yaml"
runs=$(q "$db" "SELECT count(*) FROM run")
run "$KPLAN" plan --config "$T/many-profiles.yaml" "$db"
is "$rc" 1 "257 profiles: exit 1"
like "$err" "many-profiles.yaml:4:1: KubeSchedulerConfiguration: profiles: 257 profiles, more than kplan reads (256)" "257 profiles: refused at the list"
is "$(q "$db" "SELECT count(*) FROM run")" "$runs" "257 profiles: no run written"
sed -i '$d' "$T/many-profiles.yaml"
run "$KPLAN" plan -q --config "$T/many-profiles.yaml" "$db"
is "$rc" 0 "256 profiles are read"
run "$KPLAN" plan -q --config "$TESTS_DIR/data/config/bad-unknown-plugin.yaml" "$db"
like "$err" "plugin 'Coscheduling' is not an in-tree kube-scheduler plugin" "an out-of-tree plugin is named"

# SQL extenders: a filter with its own reason and a weighted score
run "$KPLAN" plan --config "$D/ext-config.yaml" "$db"
is "$rc" 0 "plan with SQL extenders"
is "$(q "$db" "SELECT node FROM plan WHERE pod = 'web-1'")" "n3" "the score extender wins the tie for n3"
"$KPLAN" explain "$db" default/web-1 > "$T/explain.txt"
like "$(cat "$T/explain.txt")" "n1                           SQLExtender: node(s) are reserved for batch" "the filter extender's reason shows in explain"
like "$(q "$db" "SELECT config FROM run ORDER BY id DESC LIMIT 1")" '"sqlExtenders"' "the run records its extenders"

# explain
run "$KPLAN" explain "$db" default/big
is "$rc" 0 "explain exits 0"
like "$out" "decision: unschedulable: 0/3 nodes are available: 3 Insufficient cpu." "explain gives the message"
like "$out" "NodeResourcesFit: Insufficient cpu" "explain gives each node's verdict"
run "$KPLAN" explain "$db" default/nope
is "$rc" 1 "explain of an unknown pod: 1"
like "$err" "no pod 'default/nope'" "unknown pod is named"
run "$KPLAN" explain --run 1 "$db" default/web-1
like "$out" "run 1 (replayed with seed 1" "explain --run replays that run"
done_testing
