#!/usr/bin/env bash
# 57-cli-contract.t — the user contract of issue 14: options anywhere and
# "--" ending them, "did you mean" for a mistyped option or command, only
# init and import create a database, and the API server's built-in
# PriorityClasses (system-node-critical, system-cluster-critical) known
# without an import.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/plan"
db="$T/c.db"

# ---- options after the arguments; "--" ends them
run "$KPLAN" import "$db" "$ROOT/examples" -q
is "$rc:$out" "0:" "import DB DIR -q: -q is an option, nothing printed"
is "$(q "$db" "SELECT count(*) > 0 FROM pod")" 1 "import DB DIR -q: imported"
run "$KPLAN" plan --seed 3 -q "$db"
is "$rc" 0 "plan --seed 3 DB"
run "$KPLAN" plan "$db" --seed 3 -q
is "$rc:$out" "0:" "plan DB --seed 3 -q: exit 0, quiet"
is "$(q "$db" "SELECT json_extract(options, '\$.seed') FROM run WHERE id = 2")" 3 "plan DB --seed 3: the seed is taken"
placements() { q "$db" "SELECT group_concat(pod_id || ':' || action || ':' || COALESCE(node_id, '-'), ' ')
                         FROM (SELECT * FROM placement WHERE run_id = $1 ORDER BY pod_id)"; }
like "$(placements 1)" ":bind:" "plan --seed 3 DB binds pods"
is "$(placements 2)" "$(placements 1)" "plan DB --seed 3 places every pod as plan --seed 3 DB"
run "$KPLAN" plan "$db" --drain gen-a-1 -q
is "$(q "$db" "SELECT option || ' ' || value FROM run_scenario WHERE run_id = 3")" "drain gen-a-1" "a what-if option after DB"
run "$KPLAN" query "$db" "SELECT 1 AS one" --format csv
is "$rc:$out" "0:one
1" "query DB SQL --format csv"
pod=$(q "$db" "SELECT namespace || '/' || name FROM pod ORDER BY id LIMIT 1")
run "$KPLAN" explain "$db" "$pod" --run 1
like "$out" "pod $pod, run 1 " "explain DB POD --run 1"

# a file named -q, after "--"
mkdir -p "$T/odd"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: dash-q, namespace: odd}\nspec:\n  containers: [{name: c, image: x}]\n' >"$T/odd/-q"
run sh -c 'cd "$1" && "$2" import "$3" -- -q' sh "$T/odd" "$KPLAN" "$db"
is "$rc" 0 "import DB -- -q: exit 0"
like "$out" "imported into $db" "import DB -- -q: -q is a file, the summary is printed"
is "$(q "$db" "SELECT count(*) FROM pod WHERE name = 'dash-q'")" 1 "import DB -- -q: the file named -q is imported"
run sh -c 'cd "$1" && "$2" init -- -x.db' sh "$T/odd" "$KPLAN"
is "$rc:$(test -f "$T/odd/-x.db" && echo made)" 0:made "init -- -x.db: a database named -x.db"

# SQL that starts with a comment is an argument that starts with '-': after "--"
run "$KPLAN" query --format csv "$db" "-- a comment
SELECT 2 AS two"
is "$rc" 64 "query DB '-- comment ...': exit 64"
is "$(head -1 <<<"$err")" "kplan query: '-- a comment...' is not an option: put '--' before an argument that starts with '-'" \
	"query DB '-- comment ...': says to put '--' before it"
run "$KPLAN" query "$db" -- "-- a comment
SELECT 2 AS two" --format
is "$rc" 64 "query DB -- SQL --format: after '--' nothing is an option"
run "$KPLAN" query "$db" --format csv -- "-- a comment
SELECT 2 AS two"
is "$rc:$out" "0:two
2" "query DB --format csv -- '-- comment ...': runs"

# shell: what follows DB goes to sqlite3 as it is
# (SAN=1: the sanitizer runtime first in the uninstrumented sqlite3, as in 73-shells.t)
preload=""
[ "$SAN" = 1 ] && preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
if command -v sqlite3 >/dev/null; then
	run env LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 "$KPLAN" shell "$db" .tables
	like "$out" "placement" "shell DB .tables: a dot-command for sqlite3"
	run env LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 "$KPLAN" shell "$db" -csv "SELECT 1, 'a b'"
	is "$rc:$out" '0:1,"a b"' "shell DB -csv SQL: sqlite3's own option, after DB"
else
	skip "sqlite3 shell not installed" 2
fi

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

# ---- did you mean
while IFS='|' read -r args want; do
	run "$KPLAN" $args
	is "$rc" 64 "$args: exit 64"
	is "$(head -1 <<<"$err")" "$want" "$args: $want"
done <<'EOF_MEAN'
plan --sed 3 x.db|kplan plan: unknown option '--sed'; did you mean '--seed'?
plan x.db --fail-on-unschedulabel|kplan plan: unknown option '--fail-on-unschedulabel'; did you mean '--fail-on-unschedulable'?
plan --bogus x.db|kplan plan: unknown option '--bogus'
plan --s 3 x.db|kplan plan: option '--s' is ambiguous: '--seed', '--strategy', '--scale', '--strategies'
import x.db f.yaml --qiuet|kplan import: unknown option '--qiuet'; did you mean '--quiet'?
query --no-headr x.db SELECT 1|kplan query: unknown option '--no-headr'; did you mean '--no-header'?
explain --rnu 1 x.db a/b|kplan explain: unknown option '--rnu'; did you mean '--run'?
capacity x.db --preemptoin|kplan capacity: unknown option '--preemptoin'; did you mean '--preemption'?
report --no-timng x.db|kplan report: unknown option '--no-timng'; did you mean '--no-timing'?
report --no-timing=1 x.db|kplan report: option '--no-timing' takes no value
shell --sqlte3 x.db|kplan shell: unknown option '--sqlte3'; did you mean '--sqlite3'?
pln x.db|kplan: 'pln' is not a kplan command; did you mean 'plan'? See 'kplan --help'.
qeury x.db|kplan: 'qeury' is not a kplan command; did you mean 'query'? See 'kplan --help'.
frobnicate|kplan: 'frobnicate' is not a kplan command. See 'kplan --help'.
help reprot|kplan help: 'reprot' is not a kplan command; did you mean 'report'?
EOF_MEAN

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
