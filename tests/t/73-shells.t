#!/usr/bin/env bash
# 73-shells.t — kplan's SQL outside kplan and kplan's SQL output:
#  - build/kplan.so in the stock sqlite3 shell and in Python's sqlite3 module;
#  - every registered function (read from planner/udf.c and checked against
#    pragma function_list) called ~3000 times with NULLs, blobs, wrong types,
#    huge/negative/NaN-ish values and wrong argument counts, in the sqlite3
#    shell, in Python and in `kplan query`: a value or an SQL error, never a
#    crash, and the same answer everywhere;
#  - `kplan query --format table|csv|json|markdown` with NULLs, blobs, unicode, quoting;
#  - `kplan shell`.
. "$(dirname "$0")/../lib.sh"

ext="${KPLAN_SO%.so}"
preload=""
if [ "$SAN" = 1 ]; then
	# an ASan-built extension needs the sanitizer runtime first in an uninstrumented host
	preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
fi
host() { LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 "$@"; }   # sqlite3 / python3 with the extension
have_sqlite3=0
command -v sqlite3 >/dev/null && have_sqlite3=1

# --- the functions udf.c registers, and what the shell sees after .load
grep -o '{ "kplan_[a-z_]*", -\?[0-9]*' "$ROOT/planner/udf.c" | sed 's/{ "//; s/",//' >"$T/functions"
nfn=$(wc -l <"$T/functions")
[ "$nfn" -ge 10 ]
ok $? "udf.c registers $nfn function signatures"
perl "$TESTS_DIR/data/shells/udf-fuzz.pl" <"$T/functions" >"$T/fuzz.sql"
nst=$(wc -l <"$T/fuzz.sql")
[ "$nst" -ge 2000 ]
ok $? "$nst hostile calls generated"
"$KPLAN" init "$T/q.db" >/dev/null
is "$(q "$T/q.db" "SELECT name || ' ' || narg FROM pragma_function_list WHERE name LIKE 'kplan%' ORDER BY 1" | sort)" \
	"$(sort "$T/functions")" "kplan query registers exactly udf.c's functions (pragma function_list)"

if [ "$have_sqlite3" = 1 ]; then
	run host sqlite3 :memory: ".load $ext" "SELECT name || ' ' || narg FROM pragma_function_list WHERE name LIKE 'kplan%' ORDER BY 1;"
	is "$rc" 0 "the extension loads in the stock sqlite3 shell"
	is "$(printf '%s\n' "$out" | sort)" "$(sort "$T/functions")" "the shell sees the same functions after .load"
	run host sqlite3 :memory: ".load $ext" "SELECT kplan_quantity('1.5Gi'), kplan_quantity('250m', 'cpu'), kplan_quantity(NULL) IS NULL;"
	is "$out" "1610612736|250|1" "kplan_quantity in the shell"
	# a selector with 200 values: all of them count (the 150th matches)
	run host sqlite3 :memory: ".load $ext" "SELECT kplan_selector_match('[[\"a\",\"In\",[' || (WITH RECURSIVE g(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM g WHERE v < 199) SELECT group_concat('\"v' || v || '\"') FROM g) || ']]]', '{\"a\":\"v150\"}');"
	is "$out" 1 "kplan_selector_match reads every value of a long In list"
	run host sqlite3 :memory: ".load $ext" "SELECT kplan_least_allocated(0, 9223372036854775807);"
	like "$err" "kplan_least_allocated: arguments out of range" "an allocatable beyond int64/100 is an SQL error (was an overflow)"

	# --- the hostile calls in the shell: it goes on after each error
	host sqlite3 -cmd ".load $ext" :memory: <"$T/fuzz.sql" >"$T/shell.out" 2>"$T/shell.err"
	rc=$?
	[ "$rc" -lt 128 ]
	ok $? "sqlite3 shell survives every hostile call (exit $rc, no signal)"
	unlike "$(cat "$T/shell.err")" "runtime error:" "no UBSan report"
	unlike "$(cat "$T/shell.err")" "AddressSanitizer" "no ASan report"
	nval=$(grep -c '^[0-9]*|' "$T/shell.out")
	nerr=$(grep -c '^\(Parse\|Runtime\) error' "$T/shell.err")
	is "$((nval + nerr))" "$nst" "every call gave one value or one SQL error ($nval values, $nerr errors)"
	[ "$nval" -ge 500 ] && [ "$nerr" -ge 500 ]
	ok $? "both values and errors are exercised"
	is "$(grep -c 'error.*kplan_[a-z_]*: \|wrong number of arguments to function kplan_' "$T/shell.err")" "$nerr" \
		"every error names the function"
	unlike "$(cat "$T/shell.err")" "out of memory" "no bogus out-of-memory errors"
else
	skip "sqlite3 shell not installed" 13
fi

# --- the same calls in `kplan query`: values agree with the shell; errors are errors
if [ "$have_sqlite3" = 1 ]; then
	# the calls that gave a value in the shell, in one kplan query
	grep '^[0-9]*|' "$T/shell.out" | cut -d'|' -f1 >"$T/okids"
	awk -F"'" 'NR == FNR {want[$1]; next} { split($2, a, "|"); if (a[1] in want) print }' "$T/okids" "$T/fuzz.sql" >"$T/ok.sql"
	run "$KPLAN" query --format table --no-header "$T/q.db" - <"$T/ok.sql"
	is "$rc" 0 "kplan query runs every call the shell answered"
	is "$(printf '%s\n' "$out" | sed 's/ *$//' | md5sum)" "$(grep '^[0-9]*|' "$T/shell.out" | sed 's/ *$//' | md5sum)" \
		"kplan query gives the same value as the extension for each of them"
	# the calls that failed in the shell: one kplan query each (a deterministic
	# sample of about 250: the extension above ran them all through the same udf.c)
	awk -F"'" 'NR == FNR {want[$1]; next} { split($2, a, "|"); if (!(a[1] in want)) print }' "$T/okids" "$T/fuzz.sql" >"$T/bad.all"
	every=$(( $(wc -l <"$T/bad.all") / 250 + 1 ))
	awk -v k="$every" 'NR % k == 1 || k == 1' "$T/bad.all" >"$T/bad.sql"
	crashed=0 notfail=0 nbad=0
	while IFS= read -r stmt; do
		nbad=$((nbad + 1))
		"$KPLAN" query "$T/q.db" "$stmt" >/dev/null 2>"$T/e"
		r=$?
		[ "$r" -ge 128 ] && { crashed=$((crashed + 1)); echo "# crash ($r): $stmt" | cut -c1-200; }
		[ "$r" = 1 ] && grep -q '^kplan: ' "$T/e" || { notfail=$((notfail + 1)); echo "# exit $r: $stmt" | cut -c1-200; }
		grep -q 'runtime error\|AddressSanitizer' "$T/e" && { crashed=$((crashed + 1)); echo "# sanitizer: $stmt" | cut -c1-200; }
	done <"$T/bad.sql"
	is "$crashed" 0 "kplan query: no crash on the $nbad calls that are SQL errors"
	is "$notfail" 0 "kplan query: each of them exits 1 with a 'kplan:' message"
else
	skip "sqlite3 shell not installed" 4
fi

# --- Python's sqlite3 module
py=""
for p in $(command -v python3) /usr/bin/python3; do
	[ -x "$p" ] && "$p" -c 'import sqlite3; sqlite3.Connection.enable_load_extension' 2>/dev/null && { py=$p; break; }
done
want_py="quantity (1610612736, 250)
null (None, None)
scores (25, 87)
error kplan_quantity: invalid quantity '12 parsecs': unknown suffix ' parsecs'
functions $(cut -d' ' -f1 "$T/functions" | sort -u | tr '\n' ' ' | sed 's/ $//')"
if [ -n "$py" ]; then
	run host "$py" "$TESTS_DIR/data/shells/ext.py" load "$KPLAN_SO" "$T/fuzz.sql"
	is "$rc" 0 "Python ($py): conn.load_extension() loads kplan.so"
	is "$(printf '%s\n' "$out" | head -5)" "$want_py" "Python: values, NULL as None, errors as OperationalError, every function"
	if [ "$have_sqlite3" = 1 ]; then
		printf '%s\n' "$out" | tail -n +6 | grep -v '^ERR$' >"$T/py.vals"
		is "$(wc -l <"$T/py.vals")" "$nval" "Python: the hostile calls give as many values as in the shell, and no crash"
		is "$(md5sum <"$T/py.vals")" "$(grep '^[0-9]*|' "$T/shell.out" | md5sum)" "Python: the same values as the shell"
	else
		skip "sqlite3 shell not installed" 2
	fi
else
	skip "no python3 with sqlite3 enable_load_extension (pyenv and some builds leave it out)" 4
fi
# Pythons built without enable_load_extension: register it with sqlite3_auto_extension (ctypes)
if command -v python3 >/dev/null; then
	run host python3 "$TESTS_DIR/data/shells/ext.py" auto "$KPLAN_SO"
	if [ "$rc" = 77 ]; then
		skip "python3: $out" 2
	else
		is "$rc" 0 "Python via sqlite3_auto_extension (ctypes)"
		is "$out" "$want_py" "Python via sqlite3_auto_extension: the same answers"
	fi
else
	skip "python3 not installed" 2
fi

# --- kplan query output formats: NULL, integers, reals, blobs, unicode, quoting
db="$T/f.db"
"$KPLAN" init "$db" >/dev/null
sql="SELECT 1 AS n, NULL AS nul, 2.5 AS r, x'00ff10' AS b, 'héllo ✓' AS u, 'a,b \"c\"' AS q, 'x|y' AS p, 'two
lines' AS nl UNION ALL SELECT 22, 'set', -0.25, x'', 'ü', '', 'plain', 'z'"
run "$KPLAN" query --format csv "$db" "$sql"
is "$out" 'n,nul,r,b,u,q,p,nl
1,,2.5,x'"'"'00ff10'"'"',héllo ✓,"a,b ""c""",x|y,"two
lines"
22,set,-0.25,x'"'"''"'"',ü,,plain,z' "csv: RFC 4180 quoting, NULL empty, blobs as x'..', unicode as is"
run "$KPLAN" query --format json "$db" "$sql"
is "$out" '[{"n":1,"nul":null,"r":2.5,"b":"x'"'"'00ff10'"'"'","u":"héllo ✓","q":"a,b \"c\"","p":"x|y","nl":"two\nlines"},
 {"n":22,"nul":"set","r":-0.25,"b":"x'"'"''"'"'","u":"ü","q":"","p":"plain","nl":"z"}]' \
	"json: numbers bare, NULL null, strings escaped"
if command -v python3 >/dev/null; then
	printf '%s\n' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[0]["u"] == "héllo ✓" and d[0]["nul"] is None and d[0]["nl"] == "two\nlines"' 2>"$T/e"
	ok $? "json: parses back (python3 json)"
else
	skip "python3 not installed"
fi
run "$KPLAN" query --format markdown "$db" "$sql"
is "$out" '| n | nul | r | b | u | q | p | nl |
|---|---|---|---|---|---|---|---|
| 1 |  | 2.5 | x'"'"'00ff10'"'"' | héllo ✓ | a,b "c" | x\|y | two<br>lines |
| 22 | set | -0.25 | x'"'"''"'"' | ü |  | plain | z |' "markdown: pipes escaped, newlines as <br>"
run "$KPLAN" query "$db" "SELECT 1 AS n, NULL AS nul, 'héllo ✓' AS u UNION ALL SELECT 22, 'set', 'ü'"
is "$out" 'n   nul  u
--  ---  -------
 1       héllo ✓
22  set  ü' "table: numbers right-aligned, NULL blank, unicode counted as one column per character"
run "$KPLAN" query --format table --no-header "$db" "SELECT 'a' AS x UNION ALL SELECT NULL"
is "$(wc -l <"$T/.out")" 2 "table --no-header: NULL is an empty line"
run "$KPLAN" query --format json "$db" "SELECT 1 AS a; SELECT 2 AS b"
is "$out" '[{"a":1}]

[{"b":2}]' "json: one array per statement"
run "$KPLAN" query --format json "$db" "SELECT 1 AS a WHERE 0"
is "$out" "[]" "json: no rows is an empty array"
run "$KPLAN" query --format csv "$db" "SELECT 1 AS a WHERE 0"
is "$out" "a" "csv: no rows is the header alone"
run "$KPLAN" query --format yaml "$db" "SELECT 1"
is "$rc" 64 "an unknown format is a usage error"
like "$err" "unknown format 'yaml'" "and says so"
run "$KPLAN" query --format csv "$db" "SELECT kplan_quantity('1Ki') AS k, kplan_tolerates('', 'Exists', '', '', 'a', 'b', 'NoSchedule') AS t"
is "$out" "k,t
1024,1" "kplan functions in query"
run "$KPLAN" query "$db" "SELECT kplan_quantity('1Q')"
is "$rc" 1 "a function error exits 1"
like "$err" "kplan: kplan_quantity: invalid quantity '1Q'" "with the function's message"

# --- kplan shell
run "$KPLAN" shell --help
is "$rc" 0 "shell --help"
like "$out" "usage: kplan shell [options] DB [SQL...]" "shell --help: usage line"
run "$KPLAN" help shell
like "$out" "usage: kplan shell" "kplan help shell"
like "$("$KPLAN" --help)" "   shell " "shell is listed in kplan --help"
run "$KPLAN" shell
is "$rc" 64 "shell without DB: usage error"
run "$KPLAN" shell --bogus "$db"
is "$rc" 64 "shell with an unknown option: usage error"
mkdir -p "$T/empty-path"
run env PATH="$T/empty-path" "$KPLAN" shell "$db"
is "$rc" 1 "shell without sqlite3 installed exits 1"
like "$err" "the sqlite3 shell is not installed" "and says so"
run "$KPLAN" shell --sqlite3 "$T/nope" "$db"
is "$rc" 1 "--sqlite3 PATH that is not a program: exit 1"
if [ "$have_sqlite3" = 1 ]; then
	run host "$KPLAN" shell "$db" <<<"SELECT kplan_quantity('1Gi');"
	is "$rc:$out" "0:1073741824" "shell: SQL on stdin, kplan functions loaded"
	run host "$KPLAN" shell "$db" "SELECT kplan_version()" "SELECT count(*) FROM node"
	is "$rc:$out" "0:$("$KPLAN" --version | cut -d' ' -f2)
0" "shell: SQL arguments go to sqlite3"
	nd="$T/new dir/new.db"
	mkdir -p "$T/new dir"
	run host "$KPLAN" shell "$nd" "PRAGMA user_version"
	is "$rc:$(test -e "$nd" && echo created)" "1:" "shell refuses a missing database and creates nothing"
	like "$err" "no such database '$nd'" "and says so"
	run host env KPLAN_SO="$T/none.so" "$KPLAN" shell "$db" "SELECT 1"
	is "$rc" 1 "KPLAN_SO naming a missing file: exit 1"
	like "$err" "cannot find kplan's SQLite extension" "and says so"
	# the installed layout: PREFIX/bin/kplan finds PREFIX/lib/kplan/kplan.so
	mkdir -p "$T/p r/bin" "$T/p r/lib/kplan"
	cp "$KPLAN" "$T/p r/bin/kplan"
	cp "$KPLAN_SO" "$T/p r/lib/kplan/kplan.so"
	run host env -u KPLAN_SO "$T/p r/bin/kplan" shell "$db" "SELECT kplan_quantity('2Ki')"
	is "$rc:$out" "0:2048" "an installed kplan finds ../lib/kplan/kplan.so (path with a space)"
	rm "$T/p r/lib/kplan/kplan.so"
	run host env -u KPLAN_SO "$T/p r/bin/kplan" shell "$db" "SELECT 1"
	is "$rc" 1 "no extension anywhere: exit 1"
	like "$err" "p r/bin/../lib/kplan/kplan.so" "the message lists where it looked"
	printf 'PRAGMA user_version = 99;' | sqlite3 "$T/newer.db"
	run host "$KPLAN" shell "$T/newer.db" "SELECT 1"
	is "$rc" 1 "a database of a newer kplan is refused"
else
	skip "sqlite3 shell not installed" 13
fi

done_testing
