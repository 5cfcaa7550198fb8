#!/usr/bin/env bash
# 76-bench.t — `make bench`'s driver (bench/run.sh) still runs: its quick form
# (BENCH_QUICK=1: 100 nodes / 3,000 pods, one run, openb's default list when
# ../shared/data is there) exits 0 and writes every table.  Timings are not
# checked here (speed targets live in bench/RESULTS.md, never in tests); the
# placements are, since they do not depend on the machine.
. "$(dirname "$0")/../lib.sh"

[ -x /usr/bin/time ] || { echo "1..0 # SKIP no /usr/bin/time (GNU time; make bench installs it)"; exit 0; }
B=$(dirname "$KPLAN")
[ -x "$B/bench/gen" ] && [ -x "$B/bench/floor" ] ||
	{ echo "1..0 # SKIP no $B/bench/gen or floor: run make"; exit 0; }

run env BENCH_QUICK=1 BENCH_RUNS=1 KP_SHARED_DATA="$KP_SHARED_DATA" sh "$ROOT/bench/run.sh" "$B"
is "$rc" 0 "bench/run.sh (quick) exits 0"
[ "$rc" = 0 ] || printf '# %s\n' "$err" | tail -20
r="$B/bench/work/RESULTS-quick.md"
[ -s "$r" ]
ok $? "it writes $r"
q=$(cat "$r" 2>/dev/null)
like "$q" "## Import" "an import table"
like "$q" "6000 pods |" "the import row counts the dump's 6,000 pods"
is "$(printf '%s\n' "$q" | grep -c '| 6000 pods |')" 4 "four import rows: YAML and JSON, each on two threads and on one"
like "$q" "| the same as JSON, kubectl -o json" "... the JSON row"
like "$q" "| 100 nodes / 3000 pods, plain | 3000 |" "the plain plan row, 3,000 pending pods"
like "$q" "| 3000 / 0 / 0 |" "plain: every pod placed"
like "$q" "| 3000 of 3000 |" "plain: the node buckets decided every cycle"
like "$q" "| 100 nodes / 3000 pods, full |" "the full-mix plan row"
if [ -d "$KP_SHARED_DATA/openb" ]; then
	like "$q" "| default | 8152 |" "openb's default list: 8,152 pods"
	# kube 1.37 (the default): BalancedAllocation's 1.36 formula; as 1.35 it is 7,917 / 235 (bench/RESULTS.md)
	like "$q" "| 7940 / 212 / 0 |" "openb's default list: 7,940 placed, 212 unschedulable (a GPU share on one device)"
	like "$q" "| 75.7 % / 91.9 % |" "openb's default list: cpu and GPU (the devices' milli the run allocated) allocated"
else
	skip "no $KP_SHARED_DATA/openb" 3
fi
done_testing
