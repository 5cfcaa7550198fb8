#!/usr/bin/env bash
# fuzz.sh [SECONDS] — build kplan's libFuzzer targets and run each for SECONDS
# (default 600) under ASan + UBSan, two at a time.
#
#   scripts/fuzz.sh          # 5 targets x 10 min, about 30 min on 2 cores
#   scripts/fuzz.sh 60       # a quick pass
#   FUZZ_TARGETS="yaml config" scripts/fuzz.sh 300
#
# Targets (tests/fuzz/fuzz_<t>.c): yaml (YAML/JSON import), csv (CSV and
# openb import), quantity (kp_quantity_parsen and its invariants), config
# (kp_config_parse), cel (DRA selectors: kp_cel_compile, kp_cel_eval and
# their invariants).  Each starts from its seeds in tests/fuzz/corpus/<t>/ and
# the inputs found by earlier runs in build/fuzz/corpus/<t>/ (new inputs go
# there; the seed directory is never written).  Crashes, leaks, timeouts and
# out-of-memory inputs land in build/fuzz/artifacts/<t>/; libFuzzer's log is
# build/fuzz/<t>.log.  A summary (target, executions, new coverage, corpus,
# crashes) is printed and written to build/fuzz/summary.txt.
#
# Exit status: 0 when no target found anything, 1 when one did, 2 when the
# build failed.  Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev).
set -u
SECONDS_EACH=${1:-600}
case $SECONDS_EACH in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 2
OUT=build/fuzz
CLANG=${CLANG:-clang}
TARGETS=${FUZZ_TARGETS:-yaml csv quantity config cel}
FLAGS="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 -fno-omit-frame-pointer"
CFLAGS_FUZZ="-std=c11 -D_DEFAULT_SOURCE -DSQLITE_CORE -I. -I$OUT/gen -Wall -Wextra $FLAGS"

command -v "$CLANG" >/dev/null || { echo "fuzz.sh: '$CLANG' not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }

# ---- build ----
# `make` first: it installs the -dev packages and proves the tree compiles.
# (The fuzz build below compiles what it needs itself, so a tree that `make`
# cannot build yet only warns; a library object the targets need still fails.)
make -s all >/dev/null || echo "fuzz.sh: warning: make failed; building the fuzz targets anyway" >&2
mkdir -p "$OUT/obj" "$OUT/gen"
# the library sources and embedded SQL, as the Makefile lists them
vars=$(make -s --no-print-directory -f Makefile -f - kp-fuzz-vars <<'EOF'
kp-fuzz-vars: ; @echo "LIB_SRC='$(LIB_SRC)'"; echo "QUERY_SQL='$(QUERY_SQL)'"
EOF
) || { echo "fuzz.sh: cannot read LIB_SRC from the Makefile" >&2; exit 2; }
eval "$vars"
sh scripts/embed.sh kp_schema_sql schema/schema.sql schema/storage.sql schema/dra.sql >"$OUT/gen/schema_sql.c"
GEN="$OUT/gen/schema_sql.c"
# queries/<area>/<name>.sql -> kp_sql_<area>_<name>, as the Makefile embeds them
{ echo "#ifndef KP_QUERIES_H"; echo "#define KP_QUERIES_H"; } >"$OUT/gen/kp_queries.h.tmp"
for f in $QUERY_SQL; do
	sym=kp_sql_$(echo "$f" | sed -e 's|^queries/||' -e 's|[.]sql$||' | tr /- __)
	sh scripts/embed.sh "$sym" "$f" >"$OUT/gen/$sym.c"
	echo "extern const char $sym[];" >>"$OUT/gen/kp_queries.h.tmp"
	GEN="$GEN $OUT/gen/$sym.c"
done
echo "#endif" >>"$OUT/gen/kp_queries.h.tmp"
cmp -s "$OUT/gen/kp_queries.h.tmp" "$OUT/gen/kp_queries.h" && rm -f "$OUT/gen/kp_queries.h.tmp" ||
	mv "$OUT/gen/kp_queries.h.tmp" "$OUT/gen/kp_queries.h"
OBJS=
build_failed=0
for src in $LIB_SRC $GEN; do
	obj=$OUT/obj/$(echo "$src" | sed -e "s|^$OUT/||" -e 's|/|_|g' -e 's|\.c$|.o|')
	# rebuild when the source or any header is newer than the object
	if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ] ||
	   [ -n "$(find common importers planner -name '*.h' -newer "$obj" 2>/dev/null | head -1)" ]; then
		$CLANG $CFLAGS_FUZZ -c "$src" -o "$obj" || { build_failed=1; rm -f "$obj"; }
	fi
	OBJS="$OBJS $obj"
done
[ $build_failed = 0 ] || echo "fuzz.sh: warning: some library sources did not compile" >&2
# an archive: each target links only the objects it uses
rm -f "$OUT/libkplan-fuzz.a"
ar rcs "$OUT/libkplan-fuzz.a" $(for o in $OBJS; do [ -e "$o" ] && echo "$o"; done)
for t in $TARGETS; do
	$CLANG $CFLAGS_FUZZ -o "$OUT/fuzz_$t" "tests/fuzz/fuzz_$t.c" "$OUT/libkplan-fuzz.a" -lsqlite3 -lyaml -lcsv -lcurl -lm -pthread ||
		{ echo "fuzz.sh: building fuzz_$t failed" >&2; exit 2; }
done
[ "$SECONDS_EACH" -gt 0 ] || { echo "built: $(for t in $TARGETS; do printf '%s ' "$OUT/fuzz_$t"; done)"; exit 0; }

# ---- run ----
export KP_FUZZ_BASE_DIR=$ROOT/tests/data/plan
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

run_target() {   # run_target T: one libFuzzer run of SECONDS_EACH
	local t=$1
	mkdir -p "$OUT/corpus/$t" "$OUT/artifacts/$t"
	local dict=
	[ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
	"./$OUT/fuzz_$t" "$OUT/corpus/$t" "tests/fuzz/corpus/$t" $dict \
		-max_total_time="$SECONDS_EACH" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$OUT/artifacts/$t/" >"$OUT/$t.log" 2>&1
	echo $? >"$OUT/$t.rc"
}

start=$(date +%s)
for t in $TARGETS; do
	rm -f "$OUT/artifacts/$t"/crash-* "$OUT/artifacts/$t"/leak-* "$OUT/artifacts/$t"/timeout-* \
	      "$OUT/artifacts/$t"/oom-* "$OUT/artifacts/$t"/slow-unit-* 2>/dev/null
done
set -- $TARGETS
while [ $# -gt 0 ]; do      # two at a time: the machine has two cores
	run_target "$1" 2>/dev/null &   # (no "Aborted" notices: the logs say it)
	if [ $# -gt 1 ]; then run_target "$2" 2>/dev/null & shift; fi
	shift
	wait
done

# ---- summary ----
{
	printf 'kplan fuzz run: %s s per target, %s, %s\n' "$SECONDS_EACH" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
		"$(git rev-parse --short HEAD 2>/dev/null || echo '?')"
	printf '%-9s %12s %8s %8s %8s  %s\n' target executions exec/s new_units cov 'corpus(units/bytes) result'
	for t in $TARGETS; do
		log=$OUT/$t.log
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
		new=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
		corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -1 | cut -d' ' -f2)
		arts=$(ls "$OUT/artifacts/$t" 2>/dev/null | grep -cE '^(crash|leak|timeout|oom)-')
		rc=$(cat "$OUT/$t.rc" 2>/dev/null || echo '?')
		if [ "$arts" -gt 0 ] || [ "$rc" != 0 ]; then
			what="FOUND: $arts artifact(s) in $OUT/artifacts/$t/ (exit $rc; see $log)"
		else
			what=clean
		fi
		printf '%-9s %12s %8s %8s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${new:-?}" "${cov:-?}" \
			"${corp:-?} $what"
	done
	printf 'elapsed: %s s\n' "$(( $(date +%s) - start ))"
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
# (not a variable set in the block above: that may run in a subshell)
if grep -q ' FOUND: ' "$OUT/summary.txt"; then exit 1; fi
exit 0
