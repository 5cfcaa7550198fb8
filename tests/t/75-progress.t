#!/usr/bin/env bash
# 75-progress.t — the progress line of import, plan and report (cli/progress.c):
# on stderr when it is a terminal (given by `script`, util-linux), with counts,
# a rate and an ETA, cleared (\r ESC[K) before anything else is printed; absent
# when stderr is a file or a pipe and with -q/--quiet; stdout the same in
# every case.
#
# The cluster is bench/gen's 500 nodes and 15,000 pods: as pods (a 9.6 MB
# file, for import's bytes and MB/s) and as workloads (for plan and report).
# The line is drawn at most 10 times a second after 0.05 s of samples, so each
# command here has to run for a few tenths of a second; on a much faster
# machine, raise the counts.
. "$(dirname "$0")/../lib.sh"

NTESTS=34
GEN=$(dirname "$KPLAN")/bench/gen
[ -x "$GEN" ] || GEN=$ROOT/build/bench/gen
if ! command -v script >/dev/null 2>&1; then
	skip "no 'script' (util-linux/bsdutils) to give kplan a terminal" "$NTESTS"
	done_testing
fi
if [ ! -x "$GEN" ]; then
	skip "no bench/gen ($GEN): run make" "$NTESTS"
	done_testing
fi
"$GEN" --nodes 500 --pods 15000 --emit pods -o "$T/pods.yaml" || fail "gen --emit pods"
"$GEN" --nodes 500 --pods 15000 -o "$T/wl.yaml" || fail "gen (workloads)"

CR=$(printf '\r')
CLEAR=$(printf '\r\033[K')
# tty NAME CMD...: run CMD with stderr (and stdin) on a terminal, stdout into
# $T/NAME.out; what the terminal showed goes to $T/NAME.tty, the exit status to $rc
tty() {
	local name=$1 cmd=""
	shift
	for a in "$@"; do cmd="$cmd '$a'"; done
	script -qec "$cmd >'$T/$name.out'" /dev/null </dev/null >"$T/$name.tty"
	rc=$?
}
# nontty NAME CMD...: stderr into a file
nontty() {
	local name=$1
	shift
	"$@" >"$T/$name.out" 2>"$T/$name.err" </dev/null
	rc=$?
}
# lines FILE: the terminal's lines, each \r starting a new one
lines() { tr '\r' '\n' <"$1"; }
# others FILE PREFIX: how many lines neither start with PREFIX nor only clear the line
others() { lines "$1" | grep -v "^$2" | grep -v "^$(printf '\033')\[K\$" | grep -c .; }
# mask: elapsed seconds in summary lines
mask() { sed -E 's/[0-9]+\.[0-9]+ s($|;)/T s\1/' "$1"; }
fresh() { rm -f "$1" "$1-wal" "$1-shm"; }

# ---- import: bytes of the file size, MB/s, ETA ----
fresh "$T/i.db"
tty imp "$KPLAN" import "$T/i.db" "$T/pods.yaml"
is "$rc" 0 "import on a terminal: exit 0"
size=$(printf '%.1f' "$(echo "$(wc -c <"$T/pods.yaml") / 1000000" | bc -l 2>/dev/null || echo 9.6)")
if lines "$T/imp.tty" | grep -Eq "^kplan: read [0-9]+\.[0-9] of $size MB, [0-9,]+ objects \([0-9.]+ MB/s, ETA [0-9]+ s\)"; then
	pass "import: 'read X of $size MB, N objects (R MB/s, ETA T s)'"
else
	fail "import: 'read X of $size MB, N objects (R MB/s, ETA T s)'"
	lines "$T/imp.tty" | head -5 | cat -v | sed 's/^/#   /'
fi
is "$(tail -c 4 "$T/imp.tty" | od -An -c | tr -d ' ')" '\r033[K' "import: the line is cleared at the end"
is "$(others "$T/imp.tty" 'kplan: read ')" 0 "import: nothing else on stderr"
n=$(lines "$T/imp.tty" | grep -c '^kplan: read ')
secs=$(sed -E 's/.*, ([0-9.]+) s$/\1/' "$T/imp.out")
is "$(perl -e 'print $ARGV[0] <= 10 * $ARGV[1] + 2 ? "ok" : "too many"' "$n" "$secs")" ok \
	"import: at most ~10 lines a second ($n lines in $secs s)"
fresh "$T/i.db"
nontty imp2 "$KPLAN" import "$T/i.db" "$T/pods.yaml"
is "$rc:$(cat "$T/imp2.err")" "0:" "import, stderr a file: no progress"
is "$(mask "$T/imp2.out")" "$(mask "$T/imp.out")" "import: the same stdout with and without a terminal"
like "$(cat "$T/imp.out")" "15000 pods; 1 file, 9.6 MB" "import: the summary line"
fresh "$T/i.db"
tty impq "$KPLAN" import -q "$T/i.db" "$T/pods.yaml"
is "$rc:$(cat "$T/impq.tty")" "0:" "import -q on a terminal: no progress"
is "$(cat "$T/impq.out")" "" "import -q: no summary line either"
fresh "$T/i.db"
tty impq2 "$KPLAN" import --quiet "$T/i.db" "$T/pods.yaml"
is "$rc:$(cat "$T/impq2.tty")" "0:" "import --quiet: no progress"

# stdin: the size is unknown, so bytes and rate without an ETA
fresh "$T/d.db"
script -qec "'$KPLAN' import '$T/d.db' - <'$T/pods.yaml' >'$T/imps.out'" /dev/null </dev/null >"$T/imps.tty"
if lines "$T/imps.tty" | grep -Eq '^kplan: read [0-9]+\.[0-9] MB, [0-9,]+ objects \([0-9.]+ MB/s\)'; then
	pass "import -: 'read X MB, N objects (R MB/s)', no total, no ETA"
else
	fail "import -: 'read X MB, N objects (R MB/s)', no total, no ETA"
	lines "$T/imps.tty" | head -5 | cat -v | sed 's/^/#   /'
fi

# an error after progress: the line is cleared, then the message
cp "$T/pods.yaml" "$T/bad.yaml"
printf -- '- apiVersion: v1\n  kind: Pod\n  metadata: {name: broken, namespace: x}\n  spec: {containers: [{name: c, resources: {requests: {cpu: 1Q}}}]}\n' >>"$T/bad.yaml"
fresh "$T/e.db"
tty impbad "$KPLAN" import "$T/e.db" "$T/bad.yaml"
is "$rc" 1 "import of a bad file on a terminal: exit 1"
like "$(cat "$T/impbad.tty")" "${CLEAR}kplan: $T/bad.yaml:" "import error: the progress line is cleared before the message"

# ---- plan: pods of the queue, pods/s, ETA ----
fresh "$T/w.db"
"$KPLAN" import -q "$T/w.db" "$T/wl.yaml" || fail "import the workloads"
for d in w1 w2 w3 w4; do sqlite3 "$T/w.db" ".backup '$T/$d.db'"; done
# --reference (every plugin on every node): the node buckets plan these
# 15,000 pods in less time than the line waits before it first shows
tty plan "$KPLAN" plan --reference "$T/w1.db"
is "$rc" 0 "plan on a terminal: exit 0"
if lines "$T/plan.tty" | grep -Eq '^kplan: planned [0-9,]+ of 15,000 pods \([0-9,]+ pods/s, ETA [0-9]+ s\)'; then
	pass "plan: 'planned N of 15,000 pods (R pods/s, ETA T s)'"
else
	fail "plan: 'planned N of 15,000 pods (R pods/s, ETA T s)'"
	lines "$T/plan.tty" | head -5 | cat -v | sed 's/^/#   /'
fi
is "$(tail -c 4 "$T/plan.tty" | od -An -c | tr -d ' ')" '\r033[K' "plan: the line is cleared at the end"
is "$(others "$T/plan.tty" 'kplan: planned ')" 0 "plan: nothing else on stderr"
nontty plan2 "$KPLAN" plan --reference "$T/w2.db"
is "$rc:$(cat "$T/plan2.err")" "0:" "plan, stderr a file: no progress"
is "$(mask "$T/plan2.out")" "$(mask "$T/plan.out")" "plan: the same stdout with and without a terminal"
like "$(cat "$T/plan.out")" "run 1: 15000 pending pods: 15000 placed" "plan: the summary line"
"$KPLAN" plan --reference "$T/w3.db" 2>&1 >"$T/plan3.out" | cat >"$T/plan3.err"
is "$(cat "$T/plan3.err")" "" "plan, stderr a pipe: no progress"
tty planq "$KPLAN" plan -q --reference "$T/w4.db"
is "$rc:$(cat "$T/planq.tty")$(cat "$T/planq.out")" "0:" "plan -q on a terminal: no progress, no summary"
is "$(q "$T/w1.db" "SELECT group_concat(pod || node, ',') FROM plan")" \
	"$(q "$T/w4.db" "SELECT group_concat(pod || node, ',') FROM plan")" "plan: the same placements with and without progress"

# ---- report: sections gathered of all, sections/s, ETA ----
"$KPLAN" report --format csv "$T/w1.db" >"$T/r.csv"   # its sections, one header row each
tty rep "$KPLAN" report --no-timing "$T/w1.db"
is "$rc" 0 "report on a terminal: exit 0"
nsec=$(grep -c '^section,' "$T/r.csv" 2>/dev/null || echo 0)
# the total counts every section gathered, also those a plain run leaves empty
# and out of the output (scenario, capacity, rebalance): at least $nsec
total=$(lines "$T/rep.tty" | sed -n 's/^kplan: report: read [0-9]* of \([0-9]*\) sections ([0-9,]* sections\/s, ETA [0-9]* s).*/\1/p' | head -1)
if [ -n "$total" ] && [ "$total" -ge "$nsec" ] && [ "$nsec" -gt 0 ]; then
	pass "report: 'report: read N of $total sections (R sections/s, ETA T s)', $nsec of them in the output"
else
	fail "report: 'report: read N of M sections (R sections/s, ETA T s)', M >= $nsec"
	lines "$T/rep.tty" | head -5 | cat -v | sed 's/^/#   /'
	echo
fi
is "$(tail -c 4 "$T/rep.tty" | od -An -c | tr -d ' ')" '\r033[K' "report: the line is cleared before the report"
nontty rep2 "$KPLAN" report --no-timing "$T/w1.db"
is "$rc:$(cat "$T/rep2.err")" "0:" "report, stderr a file: no progress"
is "$(digest "$T/rep.out")" "$(digest "$T/rep2.out")" "report: stdout byte for byte the same with and without a terminal"
tty repq "$KPLAN" report -q --no-timing "$T/w1.db"
is "$(cat "$T/repq.tty")" "" "report -q on a terminal: no progress"
is "$(digest "$T/repq.out")" "$(digest "$T/rep2.out")" "report -q: the same report on stdout"
tty repo "$KPLAN" report --quiet --format json -o "$T/r.json" "$T/w1.db"
is "$rc:$(cat "$T/repo.tty")$(cat "$T/repo.out")" "0:" "report --quiet -o FILE on a terminal: nothing at all"
tty repo2 "$KPLAN" report --format json -o "$T/r2.json" "$T/w1.db"
like "$(cat "$T/repo2.out")" "report of run 1 (json) written to $T/r2.json" "report -o FILE on a terminal: the line on stdout"
unlike "$(cat "$T/repo2.tty")$(cat "$T/repo.tty")" "$CR$CR" "report: no empty redraws"

done_testing
