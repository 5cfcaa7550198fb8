#!/bin/sh
# bench/run.sh BUILD — kplan's benchmarks (`make bench`); writes bench/RESULTS.md.
#
#   1. import throughput: a generated kubectl pod dump (`kubectl get pods -A -o yaml`
#      style, 150,000 pods), MB/s and objects/s;
#   2. plan: 500 nodes / 15,000 pods and 5,000 / 150,000, plain mix, full mix
#      and the full mix with volumes (bench/gen.c), with the I/O floor (bench/floor.c: the same load and write,
#      no planning) and the ratio plan/floor;
#   3. the openb trace ($KP_SHARED_DATA/openb): every pod list against the GPU
#      nodes (skipped, and said so, when the data is absent);
#   4. peak RSS of each (GNU time's %M);
#   5. BENCH_SCALE=1: 50,000 nodes / 1,500,000 pods, plain mix, once;
#   6. capacity --survive node on 2,500 nodes / 75,000 pods (plain mix): every
#      node lost in turn (bench/capacity.c, once), against one plan of the same
#      cluster (median), and --survive-replan (the whole cluster planned again
#      per node) on the SURVIVE_REPLAN_LIMIT most loaded nodes (default 3).
# BENCH_QUICK=1 checks the script itself on small inputs (one openb list) and
# writes $BUILD/bench/work/RESULTS-quick.md instead.  BENCH_SCALE_ONLY=1 runs
# only the scale case and replaces the "Scale" section of an existing
# bench/RESULTS.md (the growth is computed against its 5,000 / 150,000 row).
# Each timing is the median of BENCH_RUNS runs (default 5) of the whole command
# (`kplan plan` opens the database, loads, plans, writes and commits), on a fresh
# copy of the imported database each time.
set -eu

B=${1:-build}
K=$B/kplan
G=$B/bench/gen
F=$B/bench/floor
RUNS=${BENCH_RUNS:-5}
SCALE=${BENCH_SCALE:-}
DATA=${KP_SHARED_DATA:-../shared/data}
W=$B/bench/work
OUT=bench/RESULTS.md
QUICK=${BENCH_QUICK:-}
CASES="500 15000 plain s1|500 15000 full s2|500 15000 volumes s6|5000 150000 plain s3|5000 150000 full s4|5000 150000 volumes s7"
DUMP_NODES=5000 DUMP_PODS=150000
SCALE_NODES=50000 SCALE_PODS=1500000 BASE_ROW='5000 nodes \/ 150000 pods, plain'
if [ -n "$QUICK" ]; then
	SCALE_NODES=1000 SCALE_PODS=30000 BASE_ROW='100 nodes \/ 3000 pods, plain'
	CASES="100 3000 plain s1|100 3000 full s2|100 3000 volumes s7"
	R_s4=
	DUMP_NODES=200 DUMP_PODS=6000
	OUT=$B/bench/work/RESULTS-quick.md
fi
SURVIVE_NODES=2500 SURVIVE_PODS=75000 SURVIVE_REPLAN_LIMIT=${SURVIVE_REPLAN_LIMIT:-3}
[ -z "$QUICK" ] || { SURVIVE_NODES=100; SURVIVE_PODS=3000; }
C=$B/bench/capacity
TIME=/usr/bin/time
mkdir -p "$W"
ROWS=$W/rows.md
: > "$ROWS"

say() { printf 'bench: %s\n' "$*" >&2; }

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "NaN"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed CMD...: runs CMD under GNU time; appends "seconds rss_kb" to $W/t.txt;
# the command's stdout goes to $W/out.txt, stderr to $W/err.txt
timed() {
	$TIME -f '%e %M' -o "$W/t1.txt" "$@" > "$W/out.txt" 2> "$W/err.txt" || {
		say "failed: $*"; cat "$W/err.txt" >&2; exit 1; }
	cat "$W/t1.txt" >> "$W/t.txt"
}

fresh() { rm -f "$1" "$1-wal" "$1-shm"; }
# copy an imported database (checkpointed, so one file is the whole database)
copydb() { fresh "$2"; cp "$1" "$2"; }

# ---- machine ----
CORES=$(nproc)
MODEL=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
[ -n "$MODEL" ] || MODEL=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
MEM=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
KERNEL=$(uname -sr)
CCV=$(${CC:-cc} --version | head -1)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo '?')
DIRTY=$(git status --porcelain 2>/dev/null | grep -q . && echo ' (with uncommitted changes)' || true)
STAMP=$(date -u '+%Y-%m-%d %H:%M UTC')
say "$CORES cores, $MODEL, $MEM; $RUNS runs each"

PLAN_HEAD='| case | pending pods | plan (median) | pods/s | static filters (SQL) | scheduling | cycles by node buckets | placed / unschedulable / evicted | I/O floor | plan / floor | peak RSS |
|---|---|---|---|---|---|---|---|---|---|---|'
SCALE_ONLY=${BENCH_SCALE_ONLY:-}
if [ -n "$SCALE_ONLY" ]; then
	[ -f "$OUT" ] || { say "BENCH_SCALE_ONLY needs an existing $OUT"; exit 1; }
	SCALE=1
	R_s3=$(sed -n "s/^| $BASE_ROW | [0-9]* | \\([0-9.]*\\) s .*/\\1/p" "$OUT")
	[ -n "$R_s3" ] || { say "no 5000 / 150000 plain row in $OUT"; exit 1; }
fi

if [ -z "$SCALE_ONLY" ]; then
# ---- 1. import throughput ----
# import_row FORMAT LABEL [ENV...]: import $W/pods.FORMAT RUNS times into a
# fresh database (with ENV set), one table row in IMP_ROWS
IMP_ROWS=
import_row() {
	local fmt=$1 label=$2 file="$W/pods.$1"
	shift 2
	local bytes s rss objs mbs ops i=0
	bytes=$(wc -c < "$file")
	: > "$W/t.txt"
	while [ $i -lt "$RUNS" ]; do
		fresh "$W/imp.db"
		$K init "$W/imp.db" > /dev/null
		timed env "$@" $K import -q "$W/imp.db" "$file"
		i=$((i + 1))
	done
	objs=$($K query --format csv --no-header "$W/imp.db" 'select count(*) from pod')
	SQLV=$($K query --format csv --no-header "$W/imp.db" 'select sqlite_version()')
	s=$(cut -d' ' -f1 "$W/t.txt" | median)
	rss=$(cut -d' ' -f2 "$W/t.txt" | median)
	mbs=$(awk -v b="$bytes" -v s="$s" 'BEGIN { printf "%.1f", b / 1e6 / s }')
	ops=$(awk -v n="$objs" -v s="$s" 'BEGIN { printf "%.0f", n / s }')
	say "import $label: $s s, $mbs MB/s"
	IMP_ROWS="$IMP_ROWS| $label | $(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }') | $objs pods | $s s | $mbs | $ops | $((rss / 1024)) MB |
"
}
say "import: generating a $DUMP_NODES-node / $DUMP_PODS-pod kubectl dump, as YAML and as JSON"
$G --nodes $DUMP_NODES --pods $DUMP_PODS --seed 1 --mix plain --emit pods -o "$W/pods.yaml"
$G --nodes $DUMP_NODES --pods $DUMP_PODS --seed 1 --mix plain --emit pods --format json -o "$W/pods.json"
GEN_ARGS="--nodes $DUMP_NODES --pods $DUMP_PODS --emit pods"
import_row yaml "kubectl pod dump, YAML (\`bench/gen $GEN_ARGS\`)"
import_row json "the same as JSON, kubectl -o json (\`--format json\`)"
import_row yaml "YAML on one thread (\`KPLAN_READ_THREADS=1\`)" KPLAN_READ_THREADS=1
import_row json "JSON read by libyaml on one thread (\`KPLAN_JSON_READER=libyaml KPLAN_READ_THREADS=1\`)" \
	KPLAN_JSON_READER=libyaml KPLAN_READ_THREADS=1

fi   # not SCALE_ONLY

# ---- 2. plan ----
# plan_case NAME DB: RUNS plans and RUNS floors on copies of DB; one table row
plan_case() {
	name=$1 base=$2
	: > "$W/t.txt"
	: > "$W/phases.txt"
	i=0
	while [ $i -lt "$RUNS" ]; do
		copydb "$base" "$W/run.db"
		timed env KPLAN_TIMING=1 $K plan "$W/run.db"
		sed -n 's/^kplan: timing: //p' "$W/err.txt" >> "$W/phases.txt"
		i=$((i + 1))
	done
	summary=$(cat "$W/out.txt")
	p_s=$(cut -d' ' -f1 "$W/t.txt" | median)
	p_rss=$(cut -d' ' -f2 "$W/t.txt" | median)
	sched=$(sed 's/.*scheduling \([0-9.]*\) s.*/\1/' "$W/phases.txt" | median)
	static=$(sed 's/.*static filters \([0-9.]*\) s.*/\1/' "$W/phases.txt" | median)
	buckets=$(tail -1 "$W/phases.txt" | sed -n 's/.*; \([0-9]*\) cycles, \([0-9]*\) decided by node buckets.*/\2 of \1/p')
	pending=$(echo "$summary" | sed -n 's/^run [0-9]*: \([0-9]*\) pending pods.*/\1/p')
	placed=$(echo "$summary" | sed -n 's/.*: \([0-9]*\) placed.*/\1/p')
	unsched=$(echo "$summary" | sed -n 's/.*placed, \([0-9]*\) unschedulable.*/\1/p')
	evicted=$(echo "$summary" | sed -n 's/.*preemption: \([0-9]*\) evicted.*/\1/p')
	: > "$W/t.txt"
	i=0
	while [ $i -lt "$RUNS" ]; do
		copydb "$base" "$W/floor.db"
		timed $F "$W/floor.db"
		i=$((i + 1))
	done
	f_s=$(cut -d' ' -f1 "$W/t.txt" | median)
	pps=$(awk -v n="$pending" -v s="$p_s" 'BEGIN { printf "%.0f", n / s }')
	ratio=$(awk -v a="$p_s" -v b="$f_s" 'BEGIN { printf "%.1f", a / b }')
	printf '| %s | %s | %s s | %s | %s s | %s s | %s | %s / %s / %s | %s s | %s | %s MB |\n' \
		"$name" "$pending" "$p_s" "$pps" "$static" "$sched" "${buckets:-?}" "$placed" "${unsched:-0}" "${evicted:-0}" "$f_s" "$ratio" \
		"$((p_rss / 1024))" >> "$ROWS"
	say "$name: plan $p_s s ($pps pods/s), floor $f_s s, rss $((p_rss / 1024)) MB"
	eval "R_$3=\$p_s"
}

# gen_case NODES PODS MIX: generate, import once (timed, reported), checkpoint
gen_case() {
	f=$W/gen-$1-$2-$3
	$G --nodes "$1" --pods "$2" --seed 1 --mix "$3" -o "$f.yaml"
	fresh "$f.db"
	$K init "$f.db" > /dev/null
	: > "$W/t.txt"
	timed $K import -q "$f.db" "$f.yaml"
	$K query --write "$f.db" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
	say "generated $1 nodes / $2 pods ($3): import $(cut -d' ' -f1 "$W/t.txt") s"
}

if [ -z "$SCALE_ONLY" ]; then

IFS_SAVE=$IFS
IFS='|'
set -- $CASES
IFS=$IFS_SAVE
for c in "$@"; do
	set -- $c
	gen_case "$1" "$2" "$3"
	plan_case "$1 nodes / $2 pods, $3" "$W/gen-$1-$2-$3.db" "$4"
done
PLAN_ROWS=$(cat "$ROWS")
: > "$ROWS"

# ---- 3. openb ----
OPENB_NOTE=
OPENB_ROWS=
if [ -d "$DATA/openb" ]; then
	LISTS=$(ls "$DATA"/openb/openb_pod_list_*.csv)
	[ -z "$QUICK" ] || LISTS=$DATA/openb/openb_pod_list_default.csv
	for list in $LISTS; do
		name=$(basename "$list" .csv | sed 's/^openb_pod_list_//')
		db=$W/openb-$name.db
		fresh "$db"
		$K init "$db" > /dev/null
		$K import -q --format openb "$db" "$DATA/openb/openb_node_list_gpu_node.csv" "$list"
		$K query --write "$db" 'PRAGMA wal_checkpoint(TRUNCATE)' > /dev/null
		plan_case "$name" "$db" openb
		# allocation ratios of the last run: cpu requested after / allocatable; GPU: the
		# milli of the devices the run allocated / every device's (the GPUs are DRA
		# devices, importers/openb.c; every openb pod is pending, so the run's are all)
		ratios=$($K query --format csv --no-header "$W/run.db" "
			SELECT printf('%.1f %% / %.1f %%',
			  100.0 * sum(CASE WHEN resource = 'cpu' THEN requested_after END) / sum(CASE WHEN resource = 'cpu' THEN allocatable END),
			  100.0 * (SELECT sum(c.value) FROM dra_allocation a JOIN resource_claim rc ON rc.id = a.claim_id
			           JOIN claim_request_capacity c ON c.spec_id = rc.spec_id AND c.request = a.request AND c.name = 'milli'
			           WHERE a.run_id = (SELECT max(id) FROM run))
			        / (SELECT sum(value) FROM device_capacity WHERE name = 'milli'))
			FROM node_usage")
		awk -v r="$ratios" '{ l[NR] = $0 } END { for (i = 1; i < NR; i++) print l[i]; print l[NR] " " r " |" }' "$ROWS" > "$ROWS.tmp"
		mv "$ROWS.tmp" "$ROWS"
	done
	OPENB_ROWS=$(cat "$ROWS")
	: > "$ROWS"
else
	OPENB_NOTE="skipped: $DATA/openb is absent"
	say "openb: $OPENB_NOTE"
fi

# ---- 6. capacity --survive node ----
# seconds of "capacity: S s, ..." (bench/capacity.c) in $W/out.txt
cap_s() { sed -n 's/^capacity: \([0-9.]*\) s, .*/\1/p' "$W/out.txt"; }
gen_case $SURVIVE_NODES $SURVIVE_PODS plain
sdb=$W/gen-$SURVIVE_NODES-$SURVIVE_PODS-plain.db
: > "$W/t.txt"
i=0
while [ $i -lt "$RUNS" ]; do
	copydb "$sdb" "$W/run.db"
	timed $K plan -q "$W/run.db"
	i=$((i + 1))
done
sp_s=$(cut -d' ' -f1 "$W/t.txt" | median)
: > "$W/t.txt"
timed $C "$sdb" survive node
sv_s=$(cut -d' ' -f1 "$W/t.txt" | median)
sv_rss=$(cut -d' ' -f2 "$W/t.txt" | median)
sv_ans=$(sed -n 's/^capacity: [0-9.]* s, \([0-9]*\) plans; \(.*\)/\1 plans, \2/p' "$W/out.txt")
: > "$W/t.txt"
timed $C "$sdb" survive-replan node "$SURVIVE_REPLAN_LIMIT"
rp_s=$(cut -d' ' -f1 "$W/t.txt" | median)
SURVIVE_ROW=$(awk -v n="$SURVIVE_NODES" -v p="$SURVIVE_PODS" -v sv="$sv_s" -v sp="$sp_s" -v rp="$rp_s" \
	-v k="$SURVIVE_REPLAN_LIMIT" -v rss="$sv_rss" -v ans="$sv_ans" 'BEGIN {
	printf "| %d nodes / %d pods, plain | %d | %s s (%s) | %.1f ms | %s s | %.1f | %s s for %d nodes (%.2f s per plan) | %d MB |",
		n, p, n, sv, ans, 1000 * sv / n, sp, sv / sp, rp, k, rp / (k + 1), rss / 1024 }')
say "capacity --survive node: $sv_s s, one plan $sp_s s"

# ---- 7. growth: 2,500 / 75,000 (the survive cluster) to 10,000 / 300,000, plain ----
GROW_NODES=10000 GROW_PODS=300000
[ -z "$QUICK" ] || { GROW_NODES=400; GROW_PODS=12000; }
: > "$ROWS"
plan_case "$SURVIVE_NODES nodes / $SURVIVE_PODS pods, plain" "$sdb" g1
gen_case $GROW_NODES $GROW_PODS plain
plan_case "$GROW_NODES nodes / $GROW_PODS pods, plain" "$W/gen-$GROW_NODES-$GROW_PODS-plain.db" g2
GROW_ROWS=$(cat "$ROWS")
: > "$ROWS"
GROW_EXP=$(awk -v a="$R_g1" -v b="$R_g2" -v f="$((GROW_NODES / SURVIVE_NODES))" 'BEGIN { printf "%.2f", log(b / a) / log(f) }')

fi   # not SCALE_ONLY

# ---- 5. scale ----
SCALE_ROWS=
if [ -n "$SCALE" ]; then
	say "scale: $SCALE_NODES nodes / $SCALE_PODS pods (one run)"
	gen_case $SCALE_NODES $SCALE_PODS plain
	RUNS_SAVE=$RUNS
	RUNS=1
	plan_case "$SCALE_NODES nodes / $SCALE_PODS pods, plain" "$W/gen-$SCALE_NODES-$SCALE_PODS-plain.db" s5
	RUNS=$RUNS_SAVE
	SCALE_ROWS=$(cat "$ROWS")
	EXP=$(awk -v a="$R_s3" -v b="$R_s5" 'BEGIN { printf "%.2f", log(b / a) / log(10) }')
	: > "$ROWS"
fi

scale_section() {
	echo "## Scale (10 x Kubernetes' limits, one run)"
	echo
	echo "$PLAN_HEAD"
	echo "$SCALE_ROWS"
	echo
	echo "Growth against $(echo "$BASE_ROW" | tr -d '\\') (both ten times larger): time x$(awk -v a="$R_s3" -v b="$R_s5" 'BEGIN { printf "%.1f", b / a }'), exponent $EXP (time ~ size^$EXP)."
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC'), kplan commit $COMMIT$DIRTY."
}

if [ -n "$SCALE_ONLY" ]; then
	awk '/^## Scale/ { skip = 1 } !skip' "$OUT" > "$OUT.tmp"
	{ cat "$OUT.tmp"; echo; scale_section; } | cat -s > "$OUT"
	rm -f "$OUT.tmp"
	say "replaced the Scale section of $OUT"
	exit 0
fi

# a Scale section of an earlier run is kept when this run has none (it
# names its own date and commit)
OLD_SCALE=
if [ -z "$SCALE_ROWS" ] && [ -f "$OUT" ] && grep -q '^## Scale' "$OUT"; then
	OLD_SCALE=$(awk '/^## Scale/ { keep = 1 } keep' "$OUT")
fi

# ---- RESULTS.md ----
{
	echo "# kplan benchmark results"
	echo
	echo "Written by \`make bench\` (bench/run.sh); rerun it to reproduce. Do not edit by hand."
	echo
	echo "- machine: $CORES cores, $MODEL, $MEM RAM; $KERNEL"
	echo "- build: $CCV, -O2; SQLite $SQLV; kplan commit $COMMIT$DIRTY"
	echo "- command: \`make bench BENCH_RUNS=$RUNS${SCALE:+ BENCH_SCALE=1}\`, $STAMP"
	echo "- every time is the median of $RUNS runs of the whole command (open, load, plan, write, commit), wall clock;"
	echo "  peak RSS is GNU time's maximum resident set size"
	echo
	echo "## Import"
	echo
	echo "| input | size | objects | time (median) | MB/s | objects/s | peak RSS |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s' "$IMP_ROWS"
	echo
	echo "## Plan (generated clusters, bench/gen.c, seed 1)"
	echo
	echo "Static filters and scheduling are the planner's own phase times (KPLAN_TIMING=1), medians."
	echo "The I/O floor (bench/floor.c) loads the same snapshot and writes the same placement rows with no planning."
	echo
	echo "$PLAN_HEAD"
	echo "$PLAN_ROWS"
	echo
	echo "The volumes rows are the full mix's pods with storage added (\`bench/gen --mix volumes\`: zonal PVs bound to a"
	echo "quarter of the running fillers, StatefulSet claims provisioned through a WaitForFirstConsumer class with CSI"
	echo "storage capacity, shared ReadWriteMany claims, a CSINode attach limit of 25 on every node)."
	if [ -n "${R_s4:-}" ] && [ -n "${R_s7:-}" ]; then
		echo "Cost of the volumes at the largest size: $(awk -v a="$R_s4" -v b="$R_s7" 'BEGIN { printf "%+.0f %%", 100 * (b - a) / a }') against the full mix without them."
	fi
	echo
	echo "## Growth (issue 20: exponent <= 1.15)"
	echo
	echo "$PLAN_HEAD"
	echo "$GROW_ROWS"
	echo
	echo "Both $((GROW_NODES / SURVIVE_NODES)) times larger: time x$(awk -v a="$R_g1" -v b="$R_g2" 'BEGIN { printf "%.1f", b / a }'), exponent $GROW_EXP (time ~ size^$GROW_EXP)."
	echo
	echo "## capacity --survive node (issue 20)"
	echo
	echo "Every node lost in turn (\`build/bench/capacity DB survive node\`: kp_capacity_run as library code, the database"
	echo "read-only, once), each from the baseline kept in memory (the time includes the baseline); per node: that time /"
	echo "nodes.  One plan is \`kplan plan\` of the same cluster (median, with its write).  --survive-replan plans the whole"
	echo "cluster again per node, on the most loaded ones only (\`build/bench/capacity DB survive-replan node"
	echo "$SURVIVE_REPLAN_LIMIT\`, once; per plan: that time / (nodes + 1, the baseline))."
	echo
	echo "| case | nodes lost | capacity --survive node | per node | one plan (median) | survive / plan | --survive-replan | peak RSS |"
	echo "|---|---|---|---|---|---|---|---|"
	echo "$SURVIVE_ROW"
	echo
	echo "## openb (../shared/data/openb, 1,213 GPU nodes, default profile)"
	echo
	if [ -n "$OPENB_NOTE" ]; then
		echo "$OPENB_NOTE"
	else
		echo "$PLAN_HEAD" | sed '1s/$/ cpu \/ GPU allocated |/; 2s/$/---|/'
		echo "$OPENB_ROWS"
	fi
	if [ -n "$SCALE_ROWS" ]; then
		echo
		scale_section
	elif [ -n "$OLD_SCALE" ]; then
		echo
		echo "$OLD_SCALE"
	fi
} > "$OUT"
say "wrote $OUT"
