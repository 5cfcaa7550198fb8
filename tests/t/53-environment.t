#!/usr/bin/env bash
# 53-environment.t — a hostile environment: a read-only database file, a
# read-only file system, a full disk (file-size limit, full tmpfs), a missing
# directory in the database path, a database path that is a directory or not a
# database, standard output on a full device.  Each gives a clear message and
# exit status 1, and loses nothing: the database keeps its content byte for
# byte and passes integrity_check; a database file the failed command created
# is removed.
#
# Tests run as root, where chmod 444 does not stop writes: the read-only file
# is made with `chattr +i` (skipped when the file system refuses it), the
# read-only file system with a read-only bind mount, the full disk with
# `ulimit -f` (SIGXFSZ ignored, so writes fail with EFBIG) and with a 32 MB
# tmpfs filled up (each skipped, with the reason, when mount is not permitted).
. "$(dirname "$0")/../lib.sh"

MOUNTS=()
IMMUTABLE=()
cleanup() {
	local f m
	for f in "${IMMUTABLE[@]}"; do chattr -i "$f" 2>/dev/null; done
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

awk 'BEGIN { print "namespace,pod,node,phase,cpu,memory"
	for (i = 0; i < 20000; i++) printf "bulk,p%05d,,Pending,100m,128Mi\n", i }' >"$T/pods.csv"
printf 'node,cpu,memory\nextra,4,8Gi\n' >"$T/tiny.csv"

BASE=$T/base.db
run "$KPLAN" import -q "$BASE" "$ROOT/examples"
is "$rc" 0 "setup: examples/ into the base DB"

fingerprint() {
	q "$1" "SELECT (SELECT count(*) FROM import_batch) || ' batches, ' || (SELECT count(*) FROM node) || ' nodes, ' ||
	               (SELECT count(*) FROM pod) || ' pods, ' || (SELECT count(*) FROM run) || ' runs, ' ||
	               (SELECT count(*) FROM placement) || ' placements'"
}
BASE_FP=$(fingerprint "$BASE")
like "$BASE_FP" "1 batches, 8 nodes" "setup: base DB fingerprint"

# place DIR: a copy of the base DB in DIR; sets $db, $before
place() {
	mkdir -p "$1"
	db=$1/c.db
	rm -f "$db" "$db"-*
	cp "$BASE" "$db"
	before=$(digest "$db")
}
# intact DESC: $db is byte-for-byte what it was, with its content and integrity
intact() {
	is "$(digest "$db")" "$before" "$1: the database file is byte-for-byte unchanged"
	is "$(fingerprint "$db")" "$BASE_FP" "$1: the database holds what it held"
	is "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)" ok "$1: integrity_check ok"
}
# says_readonly DESC: the message says the database cannot be written
says_readonly() {
	case $err in
	*read-only* | *readonly* | *"read only"*) pass "$1: the message says read-only" ;;
	*) fail "$1: the message says read-only"; printf '#   got: %s\n' "$err" ;;
	esac
}
can_mount() {
	mkdir -p "$T/probe"
	mount -t tmpfs -o size=64k tmpfs "$T/probe" 2>/dev/null && umount "$T/probe"
}

# ---- 1. a read-only database file (chattr +i) ----
place "$T/ro"
if chattr +i "$db" 2>/dev/null && [ "$(lsattr "$db" 2>/dev/null | cut -c5)" = i ]; then
	IMMUTABLE+=("$db")
	run "$KPLAN" import "$db" "$T/tiny.csv"
	is "$rc" 1 "immutable DB: import exits 1"
	says_readonly "immutable DB: import"
	like "$err" "nothing was imported" "immutable DB: import says nothing was imported"
	run "$KPLAN" plan --no-preemption "$db"
	is "$rc" 1 "immutable DB: plan exits 1"
	says_readonly "immutable DB: plan"
	like "$err" "nothing was written" "immutable DB: plan says nothing was written"
	run "$KPLAN" query --format csv --no-header "$db" "SELECT count(*) FROM node"
	is "$rc $out" "0 8" "immutable DB: query still reads it"
	chattr -i "$db"
	intact "immutable DB"
else
	skip "chattr +i is not available on this file system (as root, chmod 444 does not stop writes)" 11
fi

# ---- 2. a read-only file system (read-only bind mount) ----
if can_mount; then
	place "$T/rosrc"
	mkdir -p "$T/romnt"
	if mount --bind "$T/rosrc" "$T/romnt" && MOUNTS+=("$T/romnt") && mount -o remount,ro,bind "$T/romnt"; then
		rdb=$T/romnt/c.db
		run "$KPLAN" import "$rdb" "$T/tiny.csv"
		is "$rc" 1 "read-only file system: import exits 1"
		like "$err" "$rdb" "read-only file system: import names the database"
		says_readonly "read-only file system: import"
		run "$KPLAN" plan --no-preemption "$rdb"
		is "$rc" 1 "read-only file system: plan exits 1"
		says_readonly "read-only file system: plan"
		run "$KPLAN" query --format csv --no-header "$rdb" "SELECT count(*) FROM node"
		is "$rc" 0 "read-only file system: query exits 0"
		is "$out" 8 "read-only file system: query reads it"
		umount "$T/romnt"
		intact "read-only file system"
	else
		skip "read-only bind mount refused" 10
	fi
else
	skip "mount is not permitted here: no read-only file system" 10
fi

# ---- 3. a full disk: a file-size limit (ulimit -f, SIGXFSZ ignored) ----
# limited KB CMD...: CMD may not grow any file beyond KB kilobytes
limited() { run bash -c 'trap "" XFSZ; ulimit -f "$1"; shift; exec "$@"' limited "$@"; }
place "$T/fsize"
limited 64 "$KPLAN" import "$db" "$T/pods.csv"
is "$rc" 1 "file-size limit: import of 20,000 pods exits 1"
like "$err" "disk" "file-size limit: the message says the write failed"
like "$err" "nothing was imported" "file-size limit: says nothing was imported"
intact "file-size limit: import"
"$KPLAN" import -q "$db" "$T/pods.csv" || fail "file-size limit: setup for the plan"
before=$(digest "$db")
fp=$(fingerprint "$db")
limited 64 "$KPLAN" plan --no-preemption "$db"
is "$rc" 1 "file-size limit: plan of 20,000 pods exits 1"
like "$err" "nothing was written" "file-size limit: plan says nothing was written"
is "$(digest "$db")" "$before" "file-size limit: plan: the database file is byte-for-byte unchanged"
is "$(fingerprint "$db")" "$fp" "file-size limit: plan: no run written"
is "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)" ok "file-size limit: plan: integrity_check ok"
run "$KPLAN" plan -q --no-preemption "$db"
is "$rc" 0 "file-size limit lifted: the plan succeeds"
rm -f "$T/fsize/new.db"*
limited 8 "$KPLAN" import "$T/fsize/new.db" "$T/tiny.csv"
is "$rc" 1 "file-size limit 8 KB: a new database cannot be created: exit 1"
like "$err" "kplan: " "file-size limit 8 KB: with a message"
is "$(cd "$T/fsize" && ls -d new.db* 2>/dev/null)" "" "file-size limit 8 KB: no database file left behind"

# ---- 4. a full disk: a 32 MB tmpfs, filled up ----
# fill KB: leave about KB kilobytes free on the tmpfs
fill() {
	local avail
	rm -f "$T/full/filler"
	avail=$(df -k --output=avail "$T/full" | tail -1 | tr -d ' ')
	dd if=/dev/zero of="$T/full/filler" bs=1k count=$((avail - $1)) 2>/dev/null
}
if can_mount && mkdir -p "$T/full" && mount -t tmpfs -o size=32m tmpfs "$T/full"; then
	MOUNTS+=("$T/full")
	place "$T/full"
	fill 1024
	run "$KPLAN" import "$db" "$T/pods.csv"
	is "$rc" 1 "1 MB free: import of 20,000 pods exits 1"
	like "$err" "disk is full" "1 MB free: the message says the disk is full"
	like "$err" "nothing was imported" "1 MB free: says nothing was imported"
	intact "1 MB free: import"
	run "$KPLAN" import "$T/full/new.db" "$T/pods.csv"
	is "$rc" 1 "1 MB free: import into a new DB exits 1"
	is "$(cd "$T/full" && ls -d new.db* 2>/dev/null)" "" "1 MB free: no new database file left behind"

	rm -f "$T/full/filler"
	run "$KPLAN" import -q "$db" "$T/pods.csv"
	is "$rc" 0 "space again: the import of 20,000 pods succeeds"
	before=$(digest "$db")
	fp=$(fingerprint "$db")
	fill 200
	run "$KPLAN" plan --no-preemption "$db"
	is "$rc" 1 "200 KB free: plan of 20,000 pods exits 1"
	like "$err" "disk is full" "200 KB free: the message says the disk is full"
	like "$err" "nothing was written" "200 KB free: plan says nothing was written"
	is "$(digest "$db")" "$before" "200 KB free: plan: the database file is byte-for-byte unchanged"
	is "$(fingerprint "$db")" "$fp" "200 KB free: plan: no run written"
	is "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)" ok "200 KB free: plan: integrity_check ok"

	# nearly no space at all: not even a new database's schema fits
	fill 8
	run "$KPLAN" import "$T/full/new.db" "$T/tiny.csv"
	is "$rc" 1 "8 KB free: import into a new DB exits 1"
	like "$err" "disk is full" "8 KB free: the message says the disk is full"
	is "$(cd "$T/full" && ls -d new.db* 2>/dev/null)" "" "8 KB free: no new database file left behind"
	run "$KPLAN" plan --no-preemption "$db"
	is "$rc" 1 "8 KB free: plan exits 1"
	like "$err" "$db" "8 KB free: plan names the database"
	rm -f "$T/full/filler" "$T/full/new.db"*
	is "$(digest "$db") $(fingerprint "$db")" "$before $fp" "8 KB free: the database is unchanged"
	run "$KPLAN" import -q "$db" "$T/tiny.csv"
	is "$rc" 0 "space again: an import succeeds"
	is "$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1)" ok "space again: integrity_check ok"
else
	skip "mount is not permitted here: no small tmpfs" 22
fi

# ---- 5. a missing directory; a directory; not a database ----
for c in init import plan query; do
	case $c in import) a=("$T/tiny.csv") ;; query) a=("SELECT 1") ;; *) a=() ;; esac
	run "$KPLAN" $c "$T/nope/sub/x.db" "${a[@]}"
	is "$rc" 1 "$c into a missing directory: exit 1"
	# init and import create it; plan and query refuse a database that does not exist
	want="cannot open database"
	case $c in plan | query) want="no such database" ;; esac
	like "$err" "kplan: $want '$T/nope/sub/x.db'" "$c into a missing directory: names the database"
	ok $([ -e "$T/nope" ] && echo 1 || echo 0) "$c into a missing directory: no directory created"

	mkdir -p "$T/adir"
	run "$KPLAN" $c "$T/adir" "${a[@]}"
	is "$rc" 1 "$c on a directory: exit 1"
	like "$err" "'$T/adir' is a directory, not a database file" "$c on a directory: says so"
	is "$(ls -A "$T/adir")" "" "$c on a directory: nothing created in it"
done

# arguments swapped: `kplan import pods.csv cluster.db`
cp "$T/tiny.csv" "$T/swap.csv"
sw=$(digest "$T/swap.csv")
run "$KPLAN" import "$T/swap.csv" "$BASE"
is "$rc" 1 "a CSV file as the database: exit 1"
like "$err" "'$T/swap.csv' is not a database" "a CSV file as the database: says so"
is "$(digest "$T/swap.csv")" "$sw" "a CSV file as the database: the file is unchanged"
sqlite3 "$T/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
od=$(digest "$T/other.db")
for c in import plan; do
	case $c in import) a=("$T/tiny.csv") ;; *) a=() ;; esac
	run "$KPLAN" $c "$T/other.db" "${a[@]}"
	is "$rc" 1 "$c on another program's SQLite file: exit 1"
	like "$err" "is an SQLite database but not a kplan database" "$c on another program's SQLite file: says so"
	is "$(digest "$T/other.db")" "$od" "$c on another program's SQLite file: unchanged"
done

# ---- 6. standard output on a full device ----
place "$T/out"
"$KPLAN" query "$db" "SELECT name FROM node" >/dev/full 2>"$T/.err"
rc=$?
is "$rc" 1 "query > /dev/full: exit 1"
like "$(cat "$T/.err")" "error writing output" "query > /dev/full: says so"
# exit status 1 means "nothing was written" (README, exit codes): a summary
# line that cannot be written either comes before anything is written, or the
# command says so and exits 0 with its work done
for c in import plan; do
	place "$T/out"
	if [ $c = import ]; then
		"$KPLAN" import "$db" "$T/tiny.csv" >/dev/full 2>"$T/.err"
	else
		"$KPLAN" plan --no-preemption "$db" >/dev/full 2>"$T/.err"
	fi
	rc=$?
	err=$(cat "$T/.err")
	like "$err" "error writing output" "$c > /dev/full: says the output failed"
	case $rc in
	1) is "$(fingerprint "$db")" "$BASE_FP" "$c > /dev/full: exit 1, so nothing was written" ;;
	0) unlike "$(fingerprint "$db")" "$BASE_FP" "$c > /dev/full: exit 0, so the $c was written" ;;
	*) fail "$c > /dev/full: exit 0 or 1 (got $rc)" ;;
	esac
done

done_testing
