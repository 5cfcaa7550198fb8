#!/usr/bin/env bash
# 50-hostile.t — hostile input never crashes, hangs or exhausts memory: a
# 100 MB single-line document, alias bombs, 10,000-deep nesting, a 1 MB label
# value, a node with 100,000 labels, integers beyond int64 (and int32 where
# Kubernetes fields are int32), non-finite quantities, invalid UTF-8, NUL
# bytes, an unclosed CSV quote, 0-byte files, and a directory holding a FIFO,
# an unreadable file or broken symlinks.
#
# Every kplan command runs in a subshell under `timeout` (TERM after 60 s,
# KILL 5 s later) and `ulimit -v` 4 GB, and must finish with a status of its
# own.  A rejected input gives "kplan: FILE:LINE:COL: ..." (and the object when
# the error is about one), exit status 1, and the database byte-for-byte
# unchanged (a new one is not left behind).  Accepted inputs are checked for
# exactly what was imported.
#
# Inputs: tests/data/hostile/ (messages name them relative to it); the big ones
# are generated into $T at test time.
#
# SAN=1: the giant single-line inputs are 10 MB instead of 100 MB, the alias
# amplification case uses 300 containers instead of 2,000, the 200,000-replica
# Deployment is skipped, and `ulimit -v` is not set (AddressSanitizer reserves
# terabytes of address space for its shadow memory and would not start).
. "$(dirname "$0")/../lib.sh"

D=$TESTS_DIR/data/hostile
cd "$D" || { fail "cd $D"; done_testing; }

TMO=60
MEM_KB=4194304
if [ "$SAN" = 1 ]; then BIG_MB=10; AMP=300; else BIG_MB=100; AMP=2000; fi

# hrun CMD...: run with a time and memory bound; sets $rc, $out, $err, $ms
hrun() {
	local t0
	t0=$(date +%s%N)
	(
		[ "$SAN" = 1 ] || ulimit -v "$MEM_KB"
		exec timeout -k 5 "$TMO" "$@"
	) >"$T/.out" 2>"$T/.err"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	out=$(head -c 100000 "$T/.out")
	err=$(head -c 100000 "$T/.err")
}

# finished DESC: the last hrun ended by itself (not by timeout, not by a signal)
finished() {
	ok $((rc == 124 || rc == 137 || rc >= 128 ? 1 : 0)) "$1: finished by itself within ${TMO} s (exit $rc, $((ms / 1000)) s)"
}

BASE=$T/base.db
run "$KPLAN" import -q "$BASE" "$ROOT/examples"
is "$rc" 0 "setup: examples/ import into the base DB"
BASE_COUNTS=$(db_counts "$BASE")
BASE_PODS=$(q "$BASE" "SELECT count(*) FROM pod")
like "$BASE_COUNTS" "1 batches, 8 nodes, " "setup: base DB holds the examples"

fresh() { # fresh: $db = a copy of the base DB, $before = its digest
	db=$T/existing.db
	rm -f "$db" "$db"-*
	cp "$BASE" "$db"
	before=$(digest "$db")
}

# unchanged DESC: the database $db is exactly as before
unchanged() {
	is "$(digest "$db")" "$before" "$1: existing DB byte-for-byte unchanged"
	is "$(db_counts "$db")" "$BASE_COUNTS" "$1: existing DB counts unchanged"
}

# rejected DESC PREFIX [REASON...] -- ARGS...: import ARGS is refused, into a
# copy of the base DB and into a new DB.  PREFIX starts the first stderr line.
rejected() {
	local desc=$1 w
	shift
	local -a wants=()
	while [ "$1" != "--" ]; do wants+=("$1"); shift; done
	shift
	fresh
	hrun "$KPLAN" import "$db" "$@"
	finished "$desc"
	is "$rc" 1 "$desc: exit status 1"
	local first=${err%%$'\n'*}
	like "$first" "${wants[0]}" "$desc: the error gives the location"
	for w in "${wants[@]:1}"; do
		like "$first" "$w" "$desc: the error says '$w'"
	done
	like "$err" "kplan: nothing was imported" "$desc: says nothing was imported"
	unchanged "$desc"
	local new=$T/new.db
	rm -f "$new" "$new"-*
	hrun "$KPLAN" import "$new" "$@"
	is "$rc" 1 "$desc (new DB): exit status 1"
	like "${err%%$'\n'*}" "${wants[0]}" "$desc (new DB): same location"
	is "$(cd "$T" && ls -d new.db* 2>/dev/null)" "" "$desc (new DB): no database file left behind"
}

# accepted_or_rejected DESC PREFIX CHECK -- ARGS...: import ARGS into a copy
# of the base DB; either it is refused (as `rejected`, existing DB only) or it
# succeeds and the shell command CHECK (run with $db set) succeeds.
accepted_or_rejected() {
	local desc=$1 prefix=$2 check=$3
	shift 4
	fresh
	hrun "$KPLAN" import "$db" "$@"
	finished "$desc"
	case $rc in
	0)
		pass "$desc: accepted (exit 0)"
		eval "$check"
		ok $? "$desc: accepted, and exactly what it holds was imported"
		is "$(sqlite3 "$db" 'PRAGMA integrity_check')" ok "$desc: integrity_check ok"
		;;
	1)
		pass "$desc: rejected (exit 1)"
		like "${err%%$'\n'*}" "$prefix" "$desc: rejected with a located message"
		unchanged "$desc"
		;;
	*)
		fail "$desc: accepted or rejected (exit $rc)"
		printf '#   stderr: %s\n' "${err:0:400}"
		skip "no verdict" 2
		;;
	esac
}

# ---- 1. a 100 MB (SAN: 10 MB) single-line document ----
BIG=$((BIG_MB * 1000000))
{
	printf '{apiVersion: v1, kind: Pod, metadata: {name: giant, namespace: default, annotations: {blob: '
	head -c "$BIG" /dev/zero | tr '\0' a
	printf '}}, spec: {containers: [{name: c, image: nginx}]}}'
} >"$T/giant-string.yaml"
is "$(wc -l <"$T/giant-string.yaml" | tr -d ' ')" 0 "setup: the giant YAML flow mapping is one line without a newline"
accepted_or_rejected "${BIG_MB} MB single-line YAML flow mapping (one giant plain scalar)" \
	"kplan: $T/giant-string.yaml:1:" \
	'[ "$(q "$db" "SELECT count(*) FROM pod WHERE namespace = '\''default'\'' AND name = '\''giant'\''")" = 1 ] &&
	 [ "$(q "$db" "SELECT count(*) FROM pod")" = $((BASE_PODS + 1)) ]' \
	-- "$T/giant-string.yaml"
rm -f "$T/giant-string.yaml"

# one JSON line: a List of ~300-byte flow-style pods, BIG bytes in all
awk -v target="$BIG" 'BEGIN {
	head = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
	printf "%s", head
	size = length(head) + 2
	for (i = 0; size < target; i++) {
		item = sprintf("%s{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%07d\",\"namespace\":\"giant\",\"labels\":{\"app\":\"web\",\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}}]}}", (i ? "," : ""), i)
		printf "%s", item
		size += length(item)
	}
	printf "]}"
	print i >"/dev/stderr"
}' >"$T/giant-list.json" 2>"$T/giant-list.n"
NPODS=$(cat "$T/giant-list.n")
is "$(wc -l <"$T/giant-list.json" | tr -d ' ')" 0 "setup: the giant JSON List is one line"
ok $(($(stat -c %s "$T/giant-list.json") >= BIG ? 0 : 1)) "setup: the giant JSON List is at least ${BIG_MB} MB"
accepted_or_rejected "${BIG_MB} MB single-line JSON List of $NPODS pods" \
	"kplan: $T/giant-list.json:1:" \
	'[ "$(q "$db" "SELECT count(*) FROM pod WHERE namespace = '\''giant'\''")" = "$NPODS" ] &&
	 [ "$(q "$db" "SELECT count(*) FROM import_batch")" = 2 ]' \
	-- "$T/giant-list.json"
rm -f "$T/giant-list.json"

# the same size, but the string never ends
{
	printf '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","namespace":"default","annotations":{"a":"'
	head -c "$BIG" /dev/zero | tr '\0' a
} >"$T/giant-unclosed.json"
rejected "${BIG_MB} MB single-line JSON whose string never closes" \
	"kplan: $T/giant-unclosed.json:1:" -- "$T/giant-unclosed.json"
rm -f "$T/giant-unclosed.json"

# a CSV quoted field that runs for BIG_MB/10 MB to the end of the file
{
	printf 'node,cpu,memory,labels\nn1,4,8Gi,zone=a\nn2,4,8Gi,"zone='
	head -c $((BIG / 10)) /dev/zero | tr '\0' b
	printf '\n'
} >"$T/giant-unclosed.csv"
rejected "CSV with a $((BIG_MB / 10)) MB quoted field that never closes" \
	"kplan: $T/giant-unclosed.csv:3:4: " "missing closing quote" -- "$T/giant-unclosed.csv"
rm -f "$T/giant-unclosed.csv"

# ---- 2. alias bombs ----
rejected "billion laughs (10 levels of 10) in a ConfigMap" \
	"kplan: billion-laughs.yaml:14:7: " "alias expansion" -- billion-laughs.yaml
rejected "billion laughs as a Pod's spec.containers" \
	"kplan: billion-laughs-pod.yaml:15:9: " "alias expansion" -- billion-laughs-pod.yaml
fresh
hrun "$KPLAN" import "$db" laughs-under-limit.yaml
finished "10^7 laughs, under the alias limit"
is "$rc" 0 "10^7 laughs, under the alias limit, in a skipped kind: imported"
like "$out" "1 object of other kinds skipped" "10^7 laughs: the ConfigMap is counted as skipped"

# amplification under the limit: one container with 1,000 requests, used AMP
# times through an alias (a ~${AMP}0-byte file that expands to AMP * 2,000 nodes)
awk -v n="$AMP" 'BEGIN {
	print "apiVersion: v1\nkind: Pod\nmetadata: {name: amp, namespace: default}\nspec:\n  initContainers:\n  - &c\n    name: c\n    image: x\n    resources:\n      requests:"
	for (i = 0; i < 1000; i++) printf "        example.com/r%d: \"1\"\n", i
	printf "  containers: ["
	for (i = 0; i < n; i++) printf "%s*c", (i ? ", " : "")
	print "]"
}' >"$T/amplify.yaml"
accepted_or_rejected "alias amplification: $AMP aliases of a container with 1,000 requests" \
	"kplan: $T/amplify.yaml:" \
	'[ "$(q "$db" "SELECT count(*) FROM pod_container c JOIN pod p ON p.id = c.pod_id WHERE p.name = '\''amp'\''")" = $((AMP + 1)) ]' \
	-- "$T/amplify.yaml"

# ---- 3. 10,000-deep nesting ----
awk 'BEGIN {
	print "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep, namespace: default}\ndata:"
	ind = "  "
	for (i = 0; i < 10000; i++) { printf "%sk:\n", ind; ind = ind " " }
	printf "%sleaf\n", ind
}' >"$T/deep-block.yaml"
# root mapping 1, data 2, line 5's value 3, ...: line 516 opens level 513
rejected "10,000-deep block mappings (YAML)" \
	"kplan: $T/deep-block.yaml:516:514: " "nesting deeper than 512 levels" -- "$T/deep-block.yaml"
rm -f "$T/deep-block.yaml"
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "- "; print "x" }' >"$T/deep-seq.yaml"
rejected "10,000-deep block sequences on one line (YAML)" \
	"kplan: $T/deep-seq.yaml:1:1025: " "nesting deeper than 512 levels" -- "$T/deep-seq.yaml"
awk 'BEGIN {
	printf "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
	for (i = 0; i < 10000; i++) printf "["
	for (i = 0; i < 10000; i++) printf "]"
	print "]}"
}' >"$T/deep-list.json"
# the root object is level 1, items (column 42) 2: the "[" at column 43 + 510 is level 513
rejected "10,000-deep arrays inside a List's items (JSON)" \
	"kplan: $T/deep-list.json:1:553: " "nesting deeper than 512 levels" -- "$T/deep-list.json"
awk 'BEGIN {
	printf "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"d\",\"namespace\":\"default\",\"labels\":"
	for (i = 0; i < 10000; i++) printf "{\"a\":"
	printf "1"
	for (i = 0; i < 10000; i++) printf "}"
	print "},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"
}' >"$T/deep-labels.json"
rejected "10,000-deep objects as a Pod's labels (JSON)" \
	"kplan: $T/deep-labels.json:1:" "nesting deeper than 512 levels" -- "$T/deep-labels.json"

# ---- 4. a 1 MB label value; a node with 100,000 labels ----
head -c 1048576 /dev/zero | tr '\0' v >"$T/mb.txt"
{
	printf 'apiVersion: v1\nkind: Node\nmetadata:\n  name: big-label\n  labels:\n    big: '
	cat "$T/mb.txt"
	printf '\nstatus: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}\n'
} >"$T/big-label.yaml"
fresh
hrun "$KPLAN" import "$db" "$T/big-label.yaml"
finished "1 MB label value"
if [ "$rc" = 0 ]; then
	pass "1 MB label value: imported"
	is "$(sqlite3 "$db" "SELECT value FROM node_label l JOIN node n ON n.id = l.node_id WHERE n.name = 'big-label' AND key = 'big'" | tr -d '\n' | sha256sum)" \
		"$(sha256sum <"$T/mb.txt")" "1 MB label value: stored exactly"
else
	is "$rc" 1 "1 MB label value: imported, or refused with exit 1"
	like "$err" "kplan: $T/big-label.yaml:6:" "1 MB label value: refused with its location"
fi

awk 'BEGIN {
	print "apiVersion: v1\nkind: Node\nmetadata:\n  name: many-labels\n  labels:"
	for (i = 0; i < 100000; i++) printf "    k%d.example.com/key-%d: v%d\n", i, i, i
	print "status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}"
	print "---\napiVersion: v1\nkind: Pod\nmetadata: {name: picky, namespace: default}"
	print "spec:\n  nodeSelector: {k99999.example.com/key-99999: v99999, k0.example.com/key-0: v0}"
	print "  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]"
}' >"$T/many-labels.yaml"
fresh
hrun "$KPLAN" import "$db" "$T/many-labels.yaml"
finished "node with 100,000 labels: import"
is "$rc" 0 "node with 100,000 labels: imported"
is "$(q "$db" "SELECT count(*) FROM node_label l JOIN node n ON n.id = l.node_id WHERE n.name = 'many-labels'")" 100000 \
	"node with 100,000 labels: all 100,000 stored"
hrun "$KPLAN" plan --no-preemption "$db"
finished "node with 100,000 labels: plan"
is "$rc" 0 "node with 100,000 labels: plan exits 0"
is "$(q "$db" "SELECT action || ' ' || node FROM plan WHERE namespace = 'default' AND pod = 'picky'")" "bind many-labels" \
	"node with 100,000 labels: a pod selecting two of them binds there"
is "$(sqlite3 "$db" 'PRAGMA integrity_check')" ok "node with 100,000 labels: integrity_check ok"

# ---- 5. integers beyond int64 (and beyond int32 for int32 fields) ----
rejected "spec.replicas beyond int64" \
	"kplan: replicas-beyond-int64.yaml:5:13: Deployment default/web: " "spec.replicas" "out of range" \
	-- replicas-beyond-int64.yaml
# Kubernetes' replicas is an int32 (kplan refuses spec.priority beyond int32 the same way)
rejected "spec.replicas = int64 max (beyond int32)" \
	"kplan: replicas-int64-max.yaml:5:13: Deployment default/web: " "spec.replicas" "int32" \
	-- replicas-int64-max.yaml
# the largest int32: valid for the API server; kplan must not try to write
# 2^31 pods for ever: refused with a message, in bounded time
fresh
hrun "$KPLAN" import "$db" replicas-int32-max.yaml
finished "spec.replicas = 2147483647"
case $rc in
0) is "$(q "$db" "SELECT count(*) FROM pod WHERE namespace = 'default' AND name LIKE 'web-%'")" 2147483647 \
	"spec.replicas = 2147483647: accepted, with every pod" ;;
*) is "$rc" 1 "spec.replicas = 2147483647: refused with exit 1"
   like "$err" "kplan: replicas-int32-max.yaml:5:13: Deployment default/web: spec.replicas" \
	"spec.replicas = 2147483647: the message names the field" ;;
esac
if [ "$rc" != 0 ]; then unchanged "spec.replicas = 2147483647"; else skip "accepted" 2; fi

if [ "$SAN" = 1 ]; then
	skip "SAN=1: the 200,000-replica Deployment is too slow under the sanitizers" 2
else
	sed 's/replicas: 2147483647/replicas: 200000/' replicas-int32-max.yaml >"$T/replicas-200k.yaml"
	fresh
	hrun "$KPLAN" import "$db" "$T/replicas-200k.yaml"
	is "$rc" 0 "spec.replicas = 200000: imported"
	is "$(q "$db" "SELECT count(*) FROM pod WHERE namespace = 'default' AND name LIKE 'web-%'")" 200000 \
		"spec.replicas = 200000: exactly 200,000 pods generated"
fi

rejected "spec.priority beyond int64 (YAML)" \
	"kplan: priority-beyond-int64.yaml:5:13: Pod default/web: " "spec.priority" "out of range" \
	-- priority-beyond-int64.yaml
rejected "spec.priority beyond int64 (JSON)" \
	"kplan: priority-beyond-int64.json:1:100: Pod default/web: " "spec.priority" "out of range" \
	-- priority-beyond-int64.json
rejected "hostPort beyond int64" \
	"kplan: hostport-beyond-int64.yaml:8:43: Pod default/web: " "hostPort" "out of range" \
	-- hostport-beyond-int64.yaml
rejected "image sizeBytes beyond int64" \
	"kplan: sizebytes-beyond-int64.yaml:8:16: Node n1: " "status.images[0].sizeBytes" "out of range" \
	-- sizebytes-beyond-int64.yaml
rejected "PriorityClass value beyond int64" \
	"kplan: priorityclass-beyond-int64.yaml:4:8: PriorityClass huge: " "value" "out of range" \
	-- priorityclass-beyond-int64.yaml

# ---- 6. non-finite and huge quantities ----
R=spec.containers[0].resources.requests
rejected "cpu: NaN" "kplan: quantity-nan.yaml:10:14: Pod default/nan: " "$R.cpu" "invalid quantity 'NaN'" \
	-- quantity-nan.yaml
rejected "cpu: .nan" "kplan: quantity-dotnan.yaml:10:14: Pod default/nan2: " "$R.cpu" "invalid quantity '.nan'" \
	-- quantity-dotnan.yaml
rejected "cpu: .inf" "kplan: quantity-inf.yaml:10:14: Pod default/inf: " "$R.cpu" "invalid quantity '.inf'" \
	-- quantity-inf.yaml
rejected "memory: -.Inf" "kplan: quantity-neg-inf.yaml:10:17: Pod default/neginf: " "$R.memory" \
	"invalid quantity '-.Inf'" -- quantity-neg-inf.yaml
rejected "cpu: 1e400" "kplan: quantity-1e400.yaml:10:14: Pod default/e400: " "$R.cpu" "'1e400' out of range" \
	-- quantity-1e400.yaml
rejected "memory: \"1e400\"" "kplan: quantity-1e400-string.yaml:10:17: Pod default/e400s: " "$R.memory" \
	"'1e400' out of range" -- quantity-1e400-string.yaml
rejected "node allocatable memory 1e400 (JSON number)" "kplan: node-memory-1e400.json:1:103: Node n1: " \
	"status.allocatable.memory" "out of range" -- node-memory-1e400.json
rejected "CSV cpu NaN" "kplan: csv-cpu-nan.csv:3:2: Node n2: " "cpu" "invalid quantity 'NaN'" -- csv-cpu-nan.csv
rejected "CSV memory .inf" "kplan: csv-memory-inf.csv:3:3: Node n2: " "memory" "invalid quantity '.inf'" \
	-- csv-memory-inf.csv

# ---- 7. invalid UTF-8, NUL bytes ----
rejected "overlong UTF-8 (C0 AF)" "kplan: utf8-overlong.yaml:5:19: " "invalid UTF-8" "0xc0" -- utf8-overlong.yaml
rejected "UTF-8-encoded surrogate (ED A0 80)" "kplan: utf8-surrogate.json:1:56: " "invalid UTF-8" "0xed" \
	-- utf8-surrogate.json
rejected "UTF-8 sequence cut by the end of the file" "kplan: utf8-truncated-at-eof.yaml:5:20: " "invalid UTF-8" \
	"0xe2" -- utf8-truncated-at-eof.yaml
rejected "invalid UTF-8 in a CSV cell" "kplan: utf8-invalid.csv:3:2: " "invalid UTF-8" "0xff" -- utf8-invalid.csv
# DEL is not printable in YAML 1.1: refused, at its position (line 5, column 19)
rejected "raw DEL in a YAML double-quoted scalar" "kplan: yaml-raw-del.yaml:5:19: " "control characters" \
	-- yaml-raw-del.yaml
rejected "NUL byte in a YAML key" "kplan: nul-in-key.yaml:6:7: " "NUL byte" -- nul-in-key.yaml
rejected "NUL byte in a CSV cell" "kplan: nul.csv:3:7: " "NUL byte" -- nul.csv
rejected "NUL byte after a JSON document" "kplan: nul-after-json.json:1:59: " "NUL byte" -- nul-after-json.json
rejected "\\u0000 escape in a JSON string" "kplan: nul-escape.json:1:53: " "NUL character" -- nul-escape.json

# ---- 8. CSV missing closing quote; 0-byte files ----
rejected "CSV quote open at the end of the file" "kplan: csv-unclosed-quote-at-eof.csv:3:3: " \
	"missing closing quote" -- csv-unclosed-quote-at-eof.csv
rejected "0-byte .yaml" "kplan: empty.yaml:1:1: " "empty file" -- empty.yaml
rejected "0-byte .json" "kplan: empty.json:1:1: " "empty file" -- empty.json
rejected "0-byte .csv" "kplan: empty.csv:1:1: " "empty file" -- empty.csv
fresh
hrun "$KPLAN" import "$db" - </dev/null
finished "0 bytes on stdin"
is "$rc" 1 "0 bytes on stdin: exit status 1"
like "$err" "kplan: <stdin>:1:1: " "0 bytes on stdin: located"
unchanged "0 bytes on stdin"

# ---- 9. directories with a FIFO, an unreadable file, broken symlinks ----
good_pod='apiVersion: v1
kind: Pod
metadata: {name: dir-good, namespace: default}
spec: {containers: [{name: c, image: x}]}'
mkdir -p "$T/fifo-dir"
printf '%s\n' "$good_pod" >"$T/fifo-dir/a.yaml"
mkfifo "$T/fifo-dir/b.yaml"
fresh
hrun "$KPLAN" import "$db" "$T/fifo-dir"
finished "directory with a FIFO named b.yaml (nobody writes to it)"
case $rc in
0) is "$(q "$db" "SELECT count(*) FROM pod WHERE name = 'dir-good'")" 1 \
	"directory with a FIFO: the FIFO is skipped, the regular file imported" ;;
*) is "$rc" 1 "directory with a FIFO: imported without it, or refused with exit 1"
   like "$err" "b.yaml" "directory with a FIFO: the message names the FIFO"
   unchanged "directory with a FIFO" ;;
esac

mkdir -p "$T/link-dir"
printf '%s\n' "$good_pod" >"$T/link-dir/a.yaml"
ln -s nowhere.yaml "$T/link-dir/b.yaml"
rejected "directory with a dangling symlink" "kplan: cannot read '$T/link-dir/b.yaml'" -- "$T/link-dir"
rm "$T/link-dir/b.yaml"
ln -s c.yaml "$T/link-dir/b.yaml"
ln -s b.yaml "$T/link-dir/c.yaml"
rejected "directory with a symlink loop" "kplan: cannot read '$T/link-dir/b.yaml'" -- "$T/link-dir"

# chmod 000 does not stop root from reading: as root, the unreadable file is
# tried as user nobody (setpriv) when possible, else skipped.
mkdir -p "$T/perm/dir"
printf '%s\n' "$good_pod" >"$T/perm/dir/a.yaml"
printf '%s\n' "$good_pod" | sed 's/dir-good/dir-secret/' >"$T/perm/dir/b.yaml"
chmod 000 "$T/perm/dir/b.yaml"
AS=()
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null && setpriv --reuid 65534 --regid 65534 --clear-groups true 2>/dev/null; then
		AS=(setpriv --reuid 65534 --regid 65534 --clear-groups)
		chmod 711 "$T"
		chmod 777 "$T/perm"
	fi
fi
if [ "$(id -u)" = 0 ] && [ ${#AS[@]} = 0 ]; then
	skip "running as root without setpriv: chmod 000 does not deny root reads" 4
else
	hrun "${AS[@]}" "$KPLAN" import "$T/perm/new.db" "$T/perm/dir"
	finished "directory with an unreadable file${AS:+ (as nobody)}"
	is "$rc" 1 "directory with an unreadable file: exit status 1"
	like "$err" "kplan: cannot open '$T/perm/dir/b.yaml': Permission denied" \
		"directory with an unreadable file: the message names it and says why"
	is "$(cd "$T/perm" && ls -d new.db* 2>/dev/null)" "" "directory with an unreadable file: no database file left behind"
fi
chmod 700 "$T"

done_testing
