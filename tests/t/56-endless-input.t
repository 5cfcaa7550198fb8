#!/usr/bin/env bash
# 56-endless-input.t — an endless input ends (common/read.c reads every input
# chunk by chunk):
#
#  1. a NUL byte is refused where it is, however long the input: /dev/zero as
#     a file and on stdin, a NUL after ~200 KB of valid YAML followed by an
#     endless pipe; for import, plan --config, --rebalance-config, capacity
#     --pod and query -.
#  2. SIGTERM and SIGINT stop `yes 'a: b' | kplan import DB -` (still reading
#     after 1 s), and an import or a query blocked reading a pipe that is
#     written to every 0.2 s: exit status 130, "interrupted", nothing written.
#  3. an endless valid pipe stops at --max-input-size (import; a regular file
#     bigger than it is refused before reading, one of exactly that size is
#     read) or at 64 MiB (SQL on stdin, a --config file).
#
# Every endless case runs under `timeout 30` and must end by itself (exit
# status not 124).  A refused import leaves an existing database byte-for-byte
# unchanged and a new one not created.  Signals go to kplan's own pid, not to
# the pipeline.
. "$(dirname "$0")/../lib.sh"

TMO=30
# trun CMD...: run under timeout $TMO; $rc, $out, $err
trun() { run timeout -k 5 "$TMO" "$@"; }
# ended DESC: the last command ended by itself, before the timeout
ended() { ok $((rc == 124 || rc == 137 ? 1 : 0)) "$1: ended by itself within $TMO s (exit $rc)"; }

BASE=$T/base.db
run "$KPLAN" import -q "$BASE" "$ROOT/examples"
is "$rc" 0 "setup: examples/ imported into the base DB"
BASE_COUNTS=$(db_counts "$BASE")
like "$BASE_COUNTS" "1 batches, 8 nodes, " "setup: the base DB holds the examples"

fresh() { # fresh: $db = a copy of the base DB, $before = its digest
	db=$T/existing.db
	rm -f "$db" "$db"-*
	cp "$BASE" "$db"
	before=$(digest "$db")
}
unchanged() { # unchanged DESC: $db is as fresh() left it
	is "$(digest "$db")" "$before" "$1: the database is byte-for-byte unchanged"
	is "$(db_counts "$db")" "$BASE_COUNTS" "$1: its counts are unchanged"
}
no_new_db() { # no_new_db DESC: the new database $T/new.db was not left behind
	is "$(cd "$T" && ls -d new.db* 2>/dev/null)" "" "$1: no database file left behind"
}

# refused DESC RC MESSAGE CMD...: CMD (an import of $db or of $T/new.db, "DB"
# in CMD) ends, is refused with exit status RC and a first line starting
# "kplan: MESSAGE", into a copy of the base DB and into a new one.  CMD reads
# the stdin of refused.
refused() {
	local desc=$1 want_rc=$2 msg=$3 a
	shift 3
	local -a args=()
	fresh
	for a in "$@"; do [ "$a" = DB ] && args+=("$db") || args+=("$a"); done
	trun "${args[@]}"
	ended "$desc"
	is "$rc" "$want_rc" "$desc: exit status $want_rc"
	like "$(printf '%s\n' "$err" | head -1)" "kplan: $msg" "$desc: the message"
	[ "$rc" = "$want_rc" ] || printf '#   %s\n' "$err"
	unchanged "$desc"
}
# refused_new: the same into a database that does not exist yet
refused_new() {
	local desc=$1 want_rc=$2 msg=$3 a
	shift 3
	local -a args=()
	rm -f "$T"/new.db*
	for a in "$@"; do [ "$a" = DB ] && args+=("$T/new.db") || args+=("$a"); done
	trun "${args[@]}"
	ended "$desc (new DB)"
	is "$rc" "$want_rc" "$desc (new DB): exit status $want_rc"
	like "$err" "kplan: $msg" "$desc (new DB): the message"
	no_new_db "$desc"
}

NULMSG="binary data (a NUL byte): not YAML, JSON or CSV"

# ---- 1. NUL bytes, wherever they are ----
refused "import /dev/zero" 1 "/dev/zero:1:1: $NULMSG" "$KPLAN" import DB /dev/zero
like "$err" "nothing was imported; the database is unchanged" "import /dev/zero: says nothing was imported"
refused_new "import /dev/zero" 1 "/dev/zero:1:1: $NULMSG" "$KPLAN" import DB /dev/zero
refused "import --format yaml - < /dev/zero" 1 "<stdin>:1:1: $NULMSG" "$KPLAN" import --format yaml DB - </dev/zero
refused_new "import --format yaml - < /dev/zero" 1 "<stdin>:1:1: $NULMSG" "$KPLAN" import --format yaml DB - </dev/zero
refused "import of a directory and /dev/zero" 1 "/dev/zero:1:1: $NULMSG" "$KPLAN" import DB "$ROOT/examples" /dev/zero

# ~200 KB of valid YAML (a ConfigMap of 4,000 52-byte lines), then a line
# with a NUL, then `yes` for ever
{
	printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: default}\ndata:\n'
	awk 'BEGIN { for (i = 1; i <= 4000; i++) printf "  k%05d: \"%040d\"\n", i, i }'
} >"$T/prefix.yaml"
PREFIX_LINES=$(wc -l <"$T/prefix.yaml")
PARTIAL='  k04001: "abc'
WANT_POS="$((PREFIX_LINES + 1)):$((${#PARTIAL} + 1))"
ok $(($(wc -c <"$T/prefix.yaml") > 200000 ? 0 : 1)) "setup: the YAML before the NUL is over 200 KB ($(wc -c <"$T/prefix.yaml") bytes, $PREFIX_LINES lines)"
rm -f "$T"/scratch.db*
run "$KPLAN" import -q "$T/scratch.db" - <"$T/prefix.yaml"
is "$rc" 0 "setup: that YAML alone imports"
export PREFIX=$T/prefix.yaml PARTIAL
NUL_PIPE='{ cat "$PREFIX"; printf "%s\0" "$PARTIAL"; yes; }'
refused "a NUL after 200 KB of YAML on an endless pipe" 1 "<stdin>:$WANT_POS: $NULMSG" \
	bash -c "$NUL_PIPE"' | exec "$0" import "$1" -' "$KPLAN" DB
refused_new "a NUL after 200 KB of YAML on an endless pipe" 1 "<stdin>:$WANT_POS: $NULMSG" \
	bash -c "$NUL_PIPE"' | exec "$0" import "$1" -' "$KPLAN" DB

# the other readers: a configuration, a policy, a --pod file, SQL on stdin
fresh
runs=$(q "$db" "SELECT count(*) FROM run")
trun "$KPLAN" plan --config /dev/zero "$db"
ended "plan --config /dev/zero"
is "$rc" 1 "plan --config /dev/zero: exit status 1, as other configuration errors"
like "$err" "kplan: /dev/zero:1:1: binary data (a NUL byte): not YAML or JSON" "plan --config /dev/zero: the message"
like "$err" "nothing was written" "plan --config /dev/zero: says nothing was written"
unchanged "plan --config /dev/zero"
trun "$KPLAN" plan --mode rebalance --rebalance-config /dev/zero "$db"
ended "plan --rebalance-config /dev/zero"
is "$rc" 64 "plan --rebalance-config /dev/zero: exit status 64, as other policy errors"
like "$err" "/dev/zero:1:1: --rebalance-config: binary data (a NUL byte)" "plan --rebalance-config /dev/zero: the message"
unchanged "plan --rebalance-config /dev/zero"
trun "$KPLAN" capacity "$db" --pod /dev/zero
ended "capacity --pod /dev/zero"
is "$rc" 1 "capacity --pod /dev/zero: exit status 1"
like "$err" "--pod '/dev/zero': /dev/zero:1:1: $NULMSG" "capacity --pod /dev/zero: the message"
unchanged "capacity --pod /dev/zero"
trun "$KPLAN" query "$db" - </dev/zero
ended "query DB - < /dev/zero"
is "$rc" 1 "query DB - < /dev/zero: exit status 1"
like "$err" "kplan: <stdin>:1:1: binary data (a NUL byte): not SQL" "query DB - < /dev/zero: the message"
is "$out" "" "query DB - < /dev/zero: no output"
unchanged "query DB - < /dev/zero"
is "$(q "$db" "SELECT count(*) FROM run")" "$runs" "refused configurations and policies wrote no run"

# ---- 2. SIGTERM and SIGINT while reading ----
# sig_after SIG SECONDS WRITER CMD...: `bash -c WRITER | CMD`, CMD under
# timeout $TMO with SIGINT and SIGTERM at their defaults (a background job of
# a script ignores SIGINT); SIG goes to CMD's own pid (kplan's: perl writes
# its pid and execs it) after SECONDS.  The writer ends by SIGPIPE.  Sets $rc,
# $err and $alive (1 when kplan was still running at the signal).
sig_after() {
	local s=$1 d=$2 w=$3 p kp i
	shift 3
	rm -f "$T/pid"
	bash -c "$w" | timeout -k 5 "$TMO" perl -e 'open(my $f, ">", shift) or die; print $f "$$\n"; close $f;
		$SIG{INT} = $SIG{TERM} = "DEFAULT"; exec @ARGV or die "exec: $!"' "$T/pid" "$@" >"$T/.out" 2>"$T/.err" &
	p=$!
	for i in $(seq 200); do [ -s "$T/pid" ] && break; sleep 0.05; done
	sleep "$d"
	kp=$(cat "$T/pid")
	if kill -0 "$kp" 2>/dev/null; then alive=1; else alive=0; fi
	kill -"$s" "$kp" 2>/dev/null
	wait "$p"
	rc=$?
	wait   # the writer
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
}
# stopped DESC: the last sig_after ended as an interrupt should
stopped() {
	is "$alive" 1 "$1: kplan was still reading when the signal came"
	ok $((rc == 124 || rc == 137 ? 1 : 0)) "$1: ended by itself within $TMO s (exit $rc)"
	is "$rc" 130 "$1: exit status 130"
	like "$err" "kplan: <stdin>: interrupted" "$1: the message says interrupted"
	unlike "$err" "cannot read" "$1: not reported as a read error"
}

for s in TERM INT; do
	fresh
	sig_after "$s" 1 "yes 'a: b'" "$KPLAN" import "$db" -
	stopped "SIG$s after 1 s of yes 'a: b' | import"
	like "$err" "interrupted: nothing was imported; the database is unchanged" "SIG$s, yes | import: says nothing was imported"
	unchanged "SIG$s, yes | import"

	rm -f "$T"/new.db*
	sig_after "$s" 1 "yes 'a: b'" "$KPLAN" import "$T/new.db" -
	stopped "SIG$s after 1 s of yes 'a: b' | import into a new DB"
	no_new_db "SIG$s, yes | import into a new DB"

	# kplan waits in read(2) for the next line: the signal makes it fail with EINTR
	fresh
	sig_after "$s" 1 "while printf 'a: b\n'; do sleep 0.2; done" "$KPLAN" import "$db" -
	stopped "SIG$s on an import waiting for a slow pipe"
	unchanged "SIG$s, an import waiting for a slow pipe"

	sig_after "$s" 1 "while printf 'SELECT 1;\n'; do sleep 0.2; done" "$KPLAN" query "$db" -
	stopped "SIG$s on query - waiting for a slow pipe"
	is "$out" "" "SIG$s, query - waiting for a slow pipe: nothing ran"
done

# ---- 3. size limits ----
MIB_MSG="<stdin>: input larger than 1Mi (1048576 bytes); raise the limit with --max-input-size SIZE"
refused "yes 'a: b' | import --max-input-size 1Mi" 1 "$MIB_MSG" \
	bash -c 'yes "a: b" | exec "$0" import --max-input-size 1Mi "$1" -' "$KPLAN" DB
refused_new "yes 'a: b' | import --max-input-size 1Mi" 1 "$MIB_MSG" \
	bash -c 'yes "a: b" | exec "$0" import --max-input-size 1Mi "$1" -' "$KPLAN" DB
refused "yes | import --max-input-size 100000 (bytes)" 1 "<stdin>: input larger than 100000 bytes; raise" \
	bash -c 'yes | exec "$0" import --max-input-size 100000 "$1" -' "$KPLAN" DB

# a regular file: refused before reading when bigger than the limit, read when exactly as big
SIZE=$(wc -c <"$T/prefix.yaml")
refused "a regular file one byte over --max-input-size" 1 "$T/prefix.yaml: input larger than $((SIZE - 1)) bytes" \
	"$KPLAN" import --max-input-size $((SIZE - 1)) DB "$T/prefix.yaml"
fresh
run "$KPLAN" import -q --max-input-size "$SIZE" "$db" "$T/prefix.yaml"
is "$rc" 0 "a regular file of exactly --max-input-size bytes is imported"
run "$KPLAN" import -q --max-input-size 10G "$db" "$T/prefix.yaml"
is "$rc" 0 "--max-input-size 10G (a quantity) is accepted"
for bad in 0 -1 abc 1.5.0 ''; do
	run "$KPLAN" import --max-input-size "$bad" "$db" "$T/prefix.yaml"
	is "$rc" 64 "--max-input-size '$bad': a usage error"
	like "$err" "--max-input-size needs a size" "--max-input-size '$bad': the message says what is wanted"
done

# the fixed 64 MiB bound of SQL on stdin and of a configuration file
fresh
trun bash -c 'yes "SELECT 1;" | exec "$0" query "$1" -' "$KPLAN" "$db"
ended "yes 'SELECT 1;' | query DB -"
is "$rc" 1 "yes 'SELECT 1;' | query DB -: exit status 1"
like "$err" "kplan: <stdin>: input larger than 64Mi (67108864 bytes)" "yes 'SELECT 1;' | query DB -: the message names the limit"
is "$out" "" "yes 'SELECT 1;' | query DB -: nothing ran"
trun bash -c 'yes | exec "$0" plan --config /dev/stdin "$1"' "$KPLAN" "$db"
ended "yes | plan --config /dev/stdin"
is "$rc" 1 "yes | plan --config /dev/stdin: exit status 1"
like "$err" "kplan: /dev/stdin: input larger than 64Mi (67108864 bytes)" "yes | plan --config /dev/stdin: the message names the limit"
unchanged "yes | plan --config /dev/stdin"

done_testing
