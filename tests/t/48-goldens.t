#!/usr/bin/env bash
# 48-goldens.t — golden files (tests/golden/, see its README) for every
# command that plans something beyond a plain run, on the hand-made fixtures
# of tests/data/{whatif,capacity,fix,rebalance} (and tests/data/golden/):
# `kplan plan` with each what-if option, --mode full and --strategy;
# `kplan capacity` in each mode, text and json; `kplan fix` with and without
# --node-template; `kplan plan --mode rebalance` per strategy, each with a case
# where nothing may move; and the report sections of a capacity answer, a fix
# and a rebalance.  Each golden file holds the command's stdout (stderr and
# exit status too) and a dump of the rows it wrote, by SQL with ORDER BY.
#
# KP_UPDATE_GOLDEN=1 rewrites the golden files (review the diff before
# committing).  Durations ("0.01 s") and kplan's version are masked, time
# columns (started, elapsed) left out; fixture paths are relative (the
# commands run in tests/data), the temporary directory is shown as $T.
. "$(dirname "$0")/../lib.sh"
G="$TESTS_DIR/golden"
DATA="$TESTS_DIR/data"
case $KPLAN in /*) ;; *) KPLAN=$PWD/$KPLAN ;; esac
cd "$DATA" || exit 1
ver=$("$KPLAN" --version | sed 's/^kplan //')
vre=$(printf %s "$ver" | sed 's/\./\\./g')
mask() {
	sed -E -e "s#$T#\$T#g" -e "s/(^|[^0-9.])$vre([^0-9.]|$)/\1VERSION\2/g" -e 's/\b[0-9]+\.[0-9]+ s\b/N.NN s/g'
}
done_names=" "

# golden NAME FUNCTION ARGS...: FUNCTION's output (masked) against tests/golden/NAME
golden() {
	local name=$1
	shift
	done_names="$done_names$name "
	"$@" >"$T/got.raw" 2>&1
	mask <"$T/got.raw" >"$T/got"
	if [ "${KP_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$T/got" "$G/$name"
	fi
	if [ ! -e "$G/$name" ]; then
		fail "golden $name (no such file: make it with KP_UPDATE_GOLDEN=1)"
	elif cmp -s "$T/got" "$G/$name"; then
		pass "golden $name"
	else
		fail "golden $name"
		diff -u "$G/$name" "$T/got" | head -40 | sed 's/^/#   /'
	fi
}

# fresh NAME FILE...: a new database $T/NAME.db of the fixture files; $db
fresh() {
	db="$T/$1.db"
	shift
	rm -f "$db"
	"$KPLAN" import -q "$db" "$@" || echo "IMPORT FAILED: $*"
}

# kp ARGS...: "$ kplan ARGS" (the database shown as DB), then the command's
# stdout, its stderr (each line "stderr: "), and "(exit N)"
kp() {
	local a shown="" rc
	for a in "$@"; do
		[ "$a" = "$db" ] && a=DB
		case $a in *[\ \'\"\(\)\<\>\!\|\;\&\$\*]*) a="'$a'" ;; esac
		shown="$shown $a"
	done
	echo "\$ kplan$shown"
	"$KPLAN" "$@" >"$T/kp.out" 2>"$T/kp.err"
	rc=$?
	cat "$T/kp.out"
	[ -s "$T/kp.out" ] && [ -n "$(tail -c1 "$T/kp.out")" ] && echo "(no newline at the end)"
	sed 's/^/stderr: /' "$T/kp.err"
	echo "(exit $rc)"
}

# sql TITLE SQL: the rows, with a header; NULL as NULL ("(no rows)"; with
# $skip_empty set, nothing)
skip_empty=""
sql() {
	sqlite3 -batch -header -nullvalue NULL "$db" "$2" >"$T/sql.out" 2>&1
	[ -s "$T/sql.out" ] || [ -z "$skip_empty" ] || return 0
	echo
	echo "== $1"
	if [ -s "$T/sql.out" ]; then cat "$T/sql.out"; else echo "(no rows)"; fi
}

# table TABLE WHERE [COLUMN...]: every row of TABLE WHERE, every column but
# the time-dependent ones (started, finished, elapsed, *_at, *_time), kplan's
# version and the COLUMNs given, ordered by every column in turn
table() {
	local t=$1 w=$2 x="" c n
	shift 2
	for c in "$@"; do x="$x, '$c'"; done
	c=$(sqlite3 -batch "$db" "SELECT count(*) || ' ' || group_concat('\"' || name || '\"', ', ') FROM (SELECT name FROM pragma_table_info('$t')
		WHERE name NOT IN ('started', 'finished', 'elapsed', 'kplan'$x) AND name NOT LIKE '%\_at' ESCAPE '\'
		AND name NOT LIKE '%\_time' ESCAPE '\' ORDER BY cid)")
	n=${c%% *}
	sql "$t WHERE $w" "SELECT ${c#* } FROM \"$t\" WHERE $w ORDER BY $(seq -s ', ' 1 "$n")"
}

last_run() { sqlite3 -batch "$db" "SELECT max(id) FROM run"; }

# the run row (without config, whose scoring is shown apart) and what a
# what-if scenario wrote (run_scenario, run_node, run_pod without the class
# hash)
run_tables() {
	local r
	r=$(last_run)
	table run "id = $r" config
	sql "run $r: scoring of the first profile (run.config)" \
		"SELECT json_extract(config, '\$.profiles[0].scoringStrategy') AS scoringStrategy,
		        json_extract(config, '\$.profiles[0].score') AS score FROM run WHERE id = $r"
	table run_scenario "run_id = $r"
	table run_node "run_id = $r"
	table run_pod "run_id = $r" class_id
}

# ---------------------------------------------------------------- what-if
# plan_case FIXTURE ARGS...: `kplan plan ARGS` on a fresh database of FIXTURE;
# its stdout, every row of the plan view and the run's tables
plan_case() {
	fresh plan "$1"
	shift
	kp plan "$@" "$db"
	sql "plan" "SELECT namespace, pod, action, node, from_node, reason FROM plan ORDER BY namespace, pod"
	run_tables
}
W=whatif/cluster.yaml
golden plan-baseline.txt plan_case $W
golden plan-add-nodes.txt plan_case $W --add-nodes whatif/big-node.yaml:2
golden plan-remove-nodes.txt plan_case $W --remove-nodes topology.kubernetes.io/zone=b
golden plan-drain.txt plan_case $W --drain n1
golden plan-cordon.txt plan_case $W --cordon pool=new
golden plan-cordon-nothing-changes.txt plan_case $W --cordon n4
golden plan-scale.txt plan_case $W --scale shop/web=4 --scale shop/db=1
golden plan-scale-nothing-changes.txt plan_case $W --scale shop/web=2 --remove-nodes 'pool notin (old,new),dedicated'
golden plan-combined.txt plan_case $W --scale shop/web=3 --add-nodes whatif/big-node.yaml --drain n1 --cordon pool=new --remove-nodes n4
golden plan-mode-full.txt plan_case $W --mode full
golden plan-mode-full-most.txt plan_case $W --mode full --strategy most
golden plan-strategy-most.txt plan_case whatif/strategy.yaml --strategy most
golden plan-strategy-balanced.txt plan_case whatif/balanced.yaml --strategy balanced

# ---------------------------------------------------------------- capacity
# capacity_tables ID: the rows of every table named capacity_* (found in
# sqlite_master, so tables added later are dumped too) for capacity answer ID;
# tables without a row for it are left out
capacity_tables() {
	local t w
	skip_empty=1
	for t in $(sqlite3 -batch "$db" "SELECT m.name || ':' || EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'capacity_id')
		FROM sqlite_master m WHERE m.type = 'table' AND m.name LIKE 'capacity\_%' ESCAPE '\' ORDER BY m.name"); do
		case $t in
		*:1) w="capacity_id = $1" ;;
		capacity_run:0) w="id = $1" ;;
		*) w=1 ;;
		esac
		table "${t%:*}" "$w"
	done
	skip_empty=""
}
# cap_case FIXTURES ARGS...: `kplan capacity DB ARGS` on a fresh database of
# FIXTURES (space-separated); its stdout and the capacity tables of its answer
cap_case() {
	# shellcheck disable=SC2086
	fresh cap $1
	shift
	kp capacity "$db" "$@"
	capacity_tables "$(sqlite3 -batch "$db" "SELECT COALESCE(max(id), 0) FROM capacity_run")"
}
C=capacity/cluster.yaml
CP="capacity/cluster.yaml capacity/pending.yaml"
for fmt in text json; do
	sfx=$([ $fmt = json ] && echo -json)
	golden "capacity-pod$sfx.txt" cap_case $C --pod capacity/pod-1cpu.yaml --format $fmt
	golden "capacity-workload$sfx.txt" cap_case "$CP" --workload shop/web --format $fmt
	golden "capacity-nodes-needed$sfx.txt" cap_case "$CP" --nodes-needed --node-template capacity/node-4cpu.yaml --format $fmt
	golden "capacity-never-fit$sfx.txt" cap_case "$CP" --nodes-needed --node-template capacity/node-tainted.yaml --format $fmt
	golden "capacity-survive-node$sfx.txt" cap_case $C --survive node --format $fmt
	golden "capacity-survive-zone$sfx.txt" cap_case $C --survive zone --format $fmt
done
golden capacity-pod-template-max.txt cap_case $C --pod capacity/deploy-500m.yaml --max 3 --pool-label pool
golden capacity-pod-selector.txt cap_case $C --pod capacity/pod-c5.yaml
# issue 14: survive per pod (the pods that lose their node, those that gain
# one), any node label, the baseline without preemption, several templates,
# nothing recorded
Z=capacity/zones.yaml
golden capacity-survive-zones-limit.txt cap_case $Z --survive zone --limit 1
golden capacity-survive-zones-json.txt cap_case $Z --survive zone --format json
golden capacity-survive-label.txt cap_case $Z --survive rack
golden capacity-survive-node-no-preemption.txt cap_case $Z --survive node --no-preemption
golden capacity-nodes-needed-templates.txt cap_case "$CP" --nodes-needed --node-template capacity/node-tainted.yaml \
	--node-template capacity/node-4cpu.yaml
golden capacity-no-record.txt cap_case $Z --survive zone --limit 1 --no-record

# ---------------------------------------------------------------- fix
# fix_case FIXTURES -- ARGS...: a fresh database of FIXTURES, planned without
# preemption (as tests/t/47-fix.t), then `kplan fix DB ARGS`; both stdouts and
# the fix table for the run
fix_case() {
	local files=""
	while [ "$1" != -- ]; do files="$files $1"; shift; done
	shift
	# shellcheck disable=SC2086
	fresh fix $files
	kp plan --no-preemption "$db"
	echo
	kp fix "$db" "$@"
	table fix "run_id = $(last_run)"
}
F=fix/cluster.yaml
golden fix-evict-relax.txt fix_case $F fix/big.yaml fix/huge.yaml fix/gpu-job.yaml fix/red.yaml --
golden fix-evict-relax-json.txt fix_case $F fix/big.yaml fix/huge.yaml fix/gpu-job.yaml fix/red.yaml -- --format json
golden fix-node-template.txt fix_case $F fix/pdb-all.yaml fix/big.yaml fix/huge.yaml -- --node-template fix/node-4cpu.yaml
golden fix-pdb.txt fix_case $F fix/pdb-b.yaml fix/big.yaml --
golden fix-node-affinity.txt fix_case $F fix/zone.yaml fix/zone-any.yaml --
golden fix-spread.txt fix_case fix/spread.yaml --
golden fix-anti-affinity.txt fix_case fix/anti.yaml --
# issue 14: web pods that fit only after an eviction or with the GPU node's
# nvidia.com/gpu taint gone: the untaint ranks last; one eviction places both
golden fix-gpu-web.txt fix_case fix/gpu-web.yaml --
golden fix-gpu-web-template.txt fix_case fix/gpu-web.yaml -- --node-template fix/node-web.yaml --format json
golden fix-nothing-unschedulable.txt fix_case $F -- --node-template fix/node-4cpu.yaml

# ---------------------------------------------------------------- rebalance
# rb_case FIXTURES -- ARGS...: `kplan plan --mode rebalance ARGS` on a fresh
# database of FIXTURES; its stdout, the plan rows other than keep, and the
# rebalance tables of the run (rebalance_node with the node's name)
rb_case() {
	local files="" r
	while [ "$1" != -- ]; do files="$files rebalance/$1"; shift; done
	shift
	# shellcheck disable=SC2086
	fresh rb $files
	kp plan --mode rebalance "$@" "$db"
	r=$(last_run)
	sql "plan rows other than keep" \
		"SELECT namespace, pod, action, node, from_node, reason FROM plan WHERE action <> 'keep' ORDER BY namespace, pod"
	sql "plan: pods per action" "SELECT action, count(*) AS pods FROM plan GROUP BY action ORDER BY action"
	table move_wave "run_id = $r"
	table rebalance_run "run_id = $r"
	table rebalance_util "run_id = $r"
	sql "rebalance_node WHERE run_id = $r (with the node's name)" \
		"SELECT r.*, n.name AS node FROM rebalance_node r LEFT JOIN node n ON n.id = r.node_id WHERE r.run_id = $r ORDER BY r.node_id"
	table run "id = $r" config
}
golden rebalance-taints.txt rb_case taints.yaml -- --strategies RemovePodsViolatingNodeTaints
golden rebalance-taints-nothing-moves.txt rb_case taints.yaml -- --strategies RemovePodsViolatingNodeTaints --exclude-namespaces shop,batch
golden rebalance-affinity.txt rb_case affinity.yaml -- --strategies RemovePodsViolatingNodeAffinity
golden rebalance-affinity-nothing-moves.txt rb_case affinity.yaml -- --strategies RemovePodsViolatingNodeAffinity --priority-threshold 0
golden rebalance-anti.txt rb_case anti.yaml -- --strategies RemovePodsViolatingInterPodAntiAffinity
golden rebalance-anti-nothing-moves.txt rb_case anti.yaml -- --strategies RemovePodsViolatingInterPodAntiAffinity --max-moves 0
golden rebalance-spread.txt rb_case spread.yaml -- --strategies RemovePodsViolatingTopologySpreadConstraint
golden rebalance-spread-nothing-moves.txt rb_case spread.yaml -- --strategies RemovePodsViolatingTopologySpreadConstraint --max-moves-per-namespace 0
golden rebalance-dups.txt rb_case dups.yaml -- --strategies RemoveDuplicates
golden rebalance-dups-nothing-moves.txt rb_case dups.yaml pdb0.yaml -- --strategies RemoveDuplicates
golden rebalance-dups-waves.txt rb_case dups.yaml pdb1.yaml -- --strategies RemoveDuplicates
golden rebalance-low.txt rb_case low.yaml -- --strategies LowNodeUtilization
golden rebalance-low-nothing-moves.txt rb_case low.yaml -- --strategies LowNodeUtilization --rebalance-config golden/low-cpu5.yaml
golden rebalance-high.txt rb_case high.yaml -- --strategies HighNodeUtilization
golden rebalance-high-nothing-moves.txt rb_case balanced.yaml -- --strategies HighNodeUtilization
golden rebalance-default-strategies.txt rb_case low.yaml --

# ---------------------------------------------------------------- report
# sections TITLE-PREFIX...: the sections of a text report (title, a line of
# dashes as long, after an empty line) whose title starts with a PREFIX
sections() {
	perl -e 'local $/; my @l = split /\n/, <STDIN>, -1; my @s;
		for my $i (0 .. $#l - 1) { push @s, $i if $l[$i] ne "" && $l[$i + 1] =~ /^-+$/
			&& length($l[$i + 1]) == length($l[$i]) && ($i == 0 || $l[$i - 1] eq "") }
		push @s, scalar @l;
		for my $k (0 .. $#s - 1) { my @x = @l[$s[$k] .. $s[$k + 1] - 1]; my $t = $x[0];
			next unless grep { index($t, $_) == 0 } @ARGV; pop @x while @x && $x[-1] eq ""; print join("\n", @x), "\n\n" }' "$@"
}
# report_of PREFIXES: `kplan report --no-timing DB`: the sections named
report_of() {
	local rc
	echo "\$ kplan report --no-timing DB   (the sections: $*)"
	"$KPLAN" report --no-timing "$db" >"$T/report.txt" 2>"$T/report.err"
	rc=$?
	sections "$@" <"$T/report.txt"
	sed 's/^/stderr: /' "$T/report.err"
	echo "(exit $rc)"
}
report_capacity() {
	# shellcheck disable=SC2086
	fresh rep $CP
	kp capacity "$db" --workload shop/web -q
	kp capacity "$db" --nodes-needed --node-template capacity/node-4cpu.yaml -q
	kp capacity "$db" --nodes-needed --node-template capacity/node-tainted.yaml -q
	kp capacity "$db" --survive zone -q
	kp plan -q "$db"
	echo
	report_of Capacity
}
report_fix() {
	fresh rep $F fix/big.yaml fix/huge.yaml fix/gpu-job.yaml fix/red.yaml
	kp plan -q --no-preemption "$db"
	kp fix -q "$db"
	echo
	report_of "Unschedulable pods" "Why-not"
}
report_rebalance() {
	fresh rep rebalance/dups.yaml rebalance/pdb1.yaml
	kp plan -q --mode rebalance --strategies RemoveDuplicates "$db"
	echo
	report_of Rebalance Moves
}
golden report-capacity.txt report_capacity
golden report-fix.txt report_fix
golden report-rebalance.txt report_rebalance

# every golden file is one of the cases above (a renamed case leaves none behind)
stray=""
for f in "$G"/*.txt; do
	case $done_names in *" ${f##*/} "*) ;; *) stray="$stray ${f##*/}" ;; esac
done
is "$stray" "" "no golden file in tests/golden without its case"
done_testing
