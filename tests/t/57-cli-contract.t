#!/usr/bin/env bash
# 57-cli-contract.t — the user contract of issue 14: options anywhere and
# "--" ending them, "did you mean" for a mistyped option or command, only
# init and import create a database, and the API server's built-in
# PriorityClasses (system-node-critical, system-cluster-critical) known
# without an import.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/plan"
db="$T/c.db"

# ---- only init and import create a database
while IFS='|' read -r cmd before after; do
	rm -f "$T/typo.db"
	run "$KPLAN" $cmd $before "$T/typo.db" $after
	is "$rc" 1 "$cmd typo.db: exit 1"
	like "$err" "kplan: no such database '$T/typo.db' (create it with 'kplan init" "$cmd typo.db: says so"
	is "$(test -e "$T/typo.db" && echo created)" "" "$cmd typo.db: no file created"
done <<EOF_DB
plan||
plan|--drain n1|
shell|--sqlite3 $(type -P true)|SELECT 1
explain||default/p
fix||
report||
capacity||--pod $D/three-nodes.yaml
EOF_DB

# ---- the built-in PriorityClasses, not imported (tests/data/plan/system-priority.yaml)
db="$T/sys.db"
"$KPLAN" import -q "$db" "$D/system-priority.yaml" || fail "import system-priority.yaml"
run "$KPLAN" plan "$db"
is "$rc" 0 "plan: exit 0"
unlike "$err" "priorityclass" "no warning about a PriorityClass that was not imported"
is "$(q "$db" "SELECT count(*) FROM run_warning WHERE kind = 'priorityclass'")" 0 "no priorityclass row in run_warning"
is "$(q "$db" "SELECT group_concat(pod, ' ') FROM (SELECT p.name AS pod FROM placement pl JOIN pod p ON p.id = pl.pod_id
               WHERE pl.action = 'bind' ORDER BY pl.seq)")" "nodecrit crit plain" \
	"queue: system-node-critical, then system-cluster-critical, then priority 0 (the reverse of creation)"
is "$(q "$db" "SELECT group_concat(pod || ':' || action || ':' || COALESCE(node, '-'), ' ') FROM (SELECT * FROM plan ORDER BY pod)")" \
	"crit:bind:n1 nodecrit:bind:n2 plain:bind:n2 victim:evict:-" "crit fits nowhere, and preempts victim (priority 1000) on n1"
is "$(q "$db" "SELECT v.name || ' by ' || p.name FROM eviction e JOIN pod v ON v.id = e.pod_id JOIN pod p ON p.id = e.preemptor_pod_id")" \
	"victim by crit" "the eviction: victim, by crit"
prio() { q "$1" "SELECT pp.priority || '/' || pp.preemption_policy || '/' || pp.missing_class FROM pod_priority pp JOIN pod p ON p.id = pp.pod_id WHERE p.name = '$2'"; }
is "$(prio "$db" nodecrit) $(prio "$db" crit)" "2000001000/PreemptLowerPriority/0 2000000000/PreemptLowerPriority/0" \
	"pod_priority: the built-in values, as the planner used them"
is "$(prio "$db" victim)" 1000/PreemptLowerPriority/0 "pod_priority: an imported class as before"
# the view's subquery is the planner's (common/priority.h KP_KNOWN_PRIORITY_CLASSES)
known=$(sed -n '/^#define KP_KNOWN_PRIORITY_CLASSES/,/^$/p' "$ROOT/common/priority.h" | grep -o '"[^"]*"' | tr -d '"\n')
is "$(q "$db" "SELECT instr(sql, '$(sed "s/'/''/g" <<<"$known")') > 0 FROM sqlite_schema WHERE name = 'pod_priority'")" 1 \
	"the pod_priority view holds the planner's subquery"

# fix: without preemption crit is unschedulable; evicting victim (lower) fixes it
"$KPLAN" plan -q --no-preemption "$db" 2>/dev/null
run "$KPLAN" fix "$db"
like "$out" "default/crit [evict]: evict 1 lower-priority pod on n1: default/victim" "fix: victim is lower than a system-cluster-critical pod"

# capacity --pod: a replica naming system-cluster-critical preempts victim
cdb="$T/cap.db"
awk '/^---$/ { n++ } n < 4' "$D/system-priority.yaml" >"$T/cap.yaml"   # the class, the nodes, victim
"$KPLAN" import -q "$cdb" "$T/cap.yaml" || fail "import cap.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: cp, namespace: default}\nspec:\n  priorityClassName: system-cluster-critical\n  containers: [{name: c, image: x, resources: {requests: {cpu: 1500m}}}]\n' >"$T/cp.yaml"
run "$KPLAN" capacity "$cdb" --pod "$T/cp.yaml" --preemption --format json
like "$out" '"fits":1,' "capacity --pod --preemption: a system-cluster-critical replica preempts victim"

# an older database: its pod_priority view is brought up to date
sqlite3 "$db" "DROP VIEW pod_priority; CREATE VIEW pod_priority AS SELECT p.id AS pod_id, COALESCE(c.priority, pc.value, 0) AS priority,
               COALESCE(c.preemption_policy, pc.preemption_policy, 'PreemptLowerPriority') AS preemption_policy,
               c.priority_class IS NOT NULL AND pc.id IS NULL AS missing_class
               FROM pod p JOIN pod_class c ON c.id = p.class_id LEFT JOIN priority_class pc ON pc.name = c.priority_class"
is "$(sqlite3 "$db" "SELECT priority FROM pod_priority JOIN pod ON pod.id = pod_id WHERE name = 'crit'")" 0 "an old view: priority 0"
"$KPLAN" plan -q "$db" 2>/dev/null
is "$(sqlite3 "$db" "SELECT priority FROM pod_priority JOIN pod ON pod.id = pod_id WHERE name = 'crit'")" 2000000000 \
	"the next plan updates the view: 2000000000"

# ---- an imported class of the same name: the same class, or refused as the API server does
pc() { printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: %s}\nvalue: %s\n%b' "$1" "$2" "${3:-}" >"$T/pc.yaml"; }
pc system-node-critical 2000001000 'globalDefault: false\npreemptionPolicy: PreemptLowerPriority\ndescription: as kubectl dumps it\n'
idb="$T/imp.db"
"$KPLAN" import -q "$idb" "$T/pc.yaml" "$D/system-priority.yaml"
is "$?" 0 "system-node-critical as the API server has it: imported"
"$KPLAN" plan -q "$idb" 2>/dev/null
is "$(prio "$idb" nodecrit)" 2000001000/PreemptLowerPriority/0 "the imported copy resolves the same"
is "$(q "$idb" "SELECT group_concat(p.name, ' ') FROM (SELECT p.name FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE pl.action = 'bind' ORDER BY pl.seq) p")" \
	"nodecrit crit plain" "the imported copy: the same queue"
while IFS='|' read -r name value extra want; do
	pc "$name" "$value" "$extra"
	run "$KPLAN" import "$T/refused.db" "$T/pc.yaml"
	is "$rc:$(test -e "$T/refused.db" && echo created)" 1: "$name $value $extra: refused, nothing created"
	like "$err" "kplan: $T/pc.yaml:$want" "$name $value $extra: $want"
done <<'EOF_PC'
system-node-critical|5||4:8: PriorityClass system-node-critical: value: the built-in system-node-critical has value 2000001000; the API server refuses any other
system-cluster-critical|2000001000||4:8: PriorityClass system-cluster-critical: value: the built-in system-cluster-critical has value 2000000000
system-cluster-critical|2000000000|globalDefault: true\n|5:16: PriorityClass system-cluster-critical: globalDefault: the built-in system-cluster-critical is not the global default
system-node-critical|2000001000|preemptionPolicy: Never\n|5:19: PriorityClass system-node-critical: preemptionPolicy: the built-in system-node-critical has PreemptLowerPriority
system-custom|100||3:18: PriorityClass system-custom: metadata.name: 'system-custom': names starting with 'system-' are reserved
huge|1000000001||4:8: PriorityClass huge: value: 1000000001 is above 1000000000, the highest a user-defined class may have
EOF_PC
pc edge 1000000000
run "$KPLAN" import -q "$T/edge.db" "$T/pc.yaml"
is "$rc" 0 "a user class of exactly 1000000000 is allowed"

done_testing
