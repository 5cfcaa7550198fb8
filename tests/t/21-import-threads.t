#!/usr/bin/env bash
# 21-import-threads.t — a big input is read on two threads (common/ydom_pipe.c:
# libyaml parses the next List items while the main thread stores the ones
# before): the database must be exactly what the one-thread read writes, the
# first error in object order must win, and a first import's deferred indexes
# (importers/import.c) must come back.  KPLAN_READ_THREADS=1|2 forces either.
. "$(dirname "$0")/../lib.sh"
big="$T/big.yaml"
# a 3 MB kubectl-style PodList (two threads by size: 1 MiB and more)
awk 'BEGIN {
	print "apiVersion: v1\nkind: List\nitems:"
	for (i = 0; i < 5000; i++) {
		printf "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p-%05d\n    namespace: ns%d\n", i, i % 7
		printf "    labels: {app: a%d, tier: t%d}\n  spec:\n    nodeName: %s\n", i % 13, i % 3, (i % 4 ? "" : "n1")
		printf "    containers:\n    - name: c\n      image: img-%d\n      resources:\n        requests: {cpu: %dm, memory: %dMi}\n", i % 5, 10 + i % 90, 64 + i % 200
		printf "  status: {phase: %s}\n", (i % 4 ? "Pending" : "Running")
	}
}' > "$big"
size=$(wc -c < "$big")
[ "$size" -gt 1048576 ] && pass "the input is over 1 MiB ($size bytes)" || fail "the input is over 1 MiB ($size bytes)"
dump() { q "$1" "SELECT (SELECT group_concat(x, ';') FROM (SELECT namespace || '/' || name || ',' || class_id || ',' || ifnull(node_name, '') || ',' || phase || ',' || line AS x FROM pod ORDER BY id)) || '|' ||
                        (SELECT group_concat(x, ';') FROM (SELECT pod_id || key || value AS x FROM pod_label ORDER BY 1)) || '|' ||
                        (SELECT group_concat(x, ';') FROM (SELECT id || spec AS x FROM pod_class ORDER BY id))" | sha256sum | cut -d' ' -f1; }
KPLAN_READ_THREADS=1 "$KPLAN" import -q "$T/one.db" "$big" || fail "one-thread import"
run "$KPLAN" import -q "$T/two.db" "$big"
is "$rc" 0 "two-thread import exits 0"
is "$(q "$T/two.db" "SELECT count(*) FROM pod")" 5000 "every pod stored"
is "$(dump "$T/two.db")" "$(dump "$T/one.db")" "pods, labels and classes identical to the one-thread read"
is "$(q "$T/two.db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('pod', 'pod_label') AND sql IS NOT NULL ORDER BY name)")" \
	"pod_by_class pod_by_node pod_by_owner pod_by_workload pod_label_key_value" "a first import's deferred indexes are built again"
is "$(q "$T/two.db" "PRAGMA integrity_check")" "ok" "integrity_check"
run "$KPLAN" plan -q "$T/two.db"
is "$rc" 0 "it plans"

# a syntax error far into the List: the same message either way, nothing imported
bad="$T/bad.yaml"
{ cat "$big"; printf -- '- apiVersion: v1\n  kind: Pod\n  metadata: {name: broken\n'; } > "$bad"
run env KPLAN_READ_THREADS=1 "$KPLAN" import -q "$T/e1.db" "$bad"
rc1=$rc err1=$err
run "$KPLAN" import -q "$T/e2.db" "$bad"
is "$rc" "$rc1" "a late syntax error: the same exit status ($rc1)"
is "$rc" 1 "... exit 1"
is "$err" "$err1" "... and the same message"
like "$err" "bad.yaml:" "... naming the file"
is "$([ -e "$T/e2.db" ] && q "$T/e2.db" "SELECT count(*) FROM pod" || echo 0)" 0 "... nothing imported"

# an invalid object in the middle: refused, or skipped with --skip-invalid, alike
inv="$T/inv.yaml"
awk '/name: p-02500/ { bad = 1 } bad && /requests:/ { print "        requests: {cpu: banana}"; bad = 0; next } { print }' "$big" > "$inv"
run env KPLAN_READ_THREADS=1 "$KPLAN" import -q "$T/i1.db" "$inv"
rc1=$rc err1=$err
run "$KPLAN" import -q "$T/i2.db" "$inv"
is "$rc:$err" "$rc1:$err1" "an invalid item: the same refusal either way"
is "$rc" 1 "... exit 1"
like "$err" "inv.yaml:" "... naming the file and line"
KPLAN_READ_THREADS=1 "$KPLAN" import -q --skip-invalid "$T/s1.db" "$inv" 2>/dev/null
run "$KPLAN" import -q --skip-invalid "$T/s2.db" "$inv"
is "$(dump "$T/s2.db")" "$(dump "$T/s1.db")" "--skip-invalid: the same rows either way"
is "$(q "$T/s2.db" "SELECT count(*) FROM pod")" 4999 "... the invalid pod left out"

# a typed PodList (items without kind) read on two threads: the List's kind
# must outlive the items in flight
typed="$T/typed.yaml"
sed -e 's/^kind: List/kind: PodList/' -e '/^  kind: Pod$/d' -e '/^- apiVersion: v1$/s/.*/-/' "$big" | sed -e '/^-$/{N;s/-\n  /- /}' > "$typed"
run "$KPLAN" import -q "$T/t.db" "$typed"
is "$rc" 0 "a typed PodList on two threads: exit 0"
is "$(q "$T/t.db" "SELECT count(*) FROM pod")" 5000 "... its items are pods"
KPLAN_READ_THREADS=2 "$KPLAN" import -q "$T/small.db" "$TESTS_DIR/data/plan/three-nodes.yaml"
is "$(q "$T/small.db" "SELECT count(*) FROM pod")" "$(KPLAN_READ_THREADS=1 "$KPLAN" import -q "$T/small1.db" "$TESTS_DIR/data/plan/three-nodes.yaml" && q "$T/small1.db" "SELECT count(*) FROM pod")" \
	"a small multi-document file forced onto two threads: the same pods"

# kubectl -o json: the JSON fast path (common/ydom_json.c) on two threads
# writes what libyaml on one thread writes, line numbers included
json="$T/big.json"
awk 'BEGIN {
	print "{\n    \"apiVersion\": \"v1\",\n    \"items\": ["
	for (i = 0; i < 5000; i++) {
		printf "        {\n            \"apiVersion\": \"v1\",\n            \"kind\": \"Pod\",\n"
		printf "            \"metadata\": {\"name\": \"p-%05d\", \"namespace\": \"ns%d\", \"labels\": {\"app\": \"a%d\", \"t\": \"\\u00e9%d\"}},\n", i, i % 7, i % 13, i % 3
		printf "            \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"img\", \"resources\": {\"requests\": {\"cpu\": \"%dm\", \"memory\": %d}}}]}\n", 10 + i % 90, 1048576 * (1 + i % 9)
		printf "        }%s\n", (i < 4999 ? "," : "")
	}
	print "    ],\n    \"kind\": \"List\"\n}"
}' > "$json"
KPLAN_JSON_READER=libyaml KPLAN_READ_THREADS=1 "$KPLAN" import -q "$T/j1.db" "$json" || fail "JSON with libyaml"
run "$KPLAN" import -q "$T/j2.db" "$json"
is "$rc" 0 "JSON on the fast path: exit 0"
is "$(q "$T/j2.db" "SELECT count(*) FROM pod")" 5000 "... every pod"
is "$(dump "$T/j2.db")" "$(dump "$T/j1.db")" "... the same rows as libyaml on one thread"
is "$(q "$T/j2.db" "SELECT value FROM pod_label WHERE key = 't' AND pod_id = 2")" "é1" "... \\u escapes decoded"
{ head -c -20 "$json"; printf ', x ]}\n'; } > "$T/bad.json"
run env KPLAN_JSON_READER=libyaml "$KPLAN" import -q "$T/jb1.db" "$T/bad.json"
rc1=$rc err1=$err
run "$KPLAN" import -q "$T/jb2.db" "$T/bad.json"
is "$rc:$err" "$rc1:$err1" "JSON that goes wrong at its end: libyaml's message either way (the fast path gives up, libyaml reads on)"
is "$rc" 1 "... exit 1"

# a second import into a database that holds pods keeps its indexes throughout
run "$KPLAN" import -q "$T/two.db" "$TESTS_DIR/data/plan/three-nodes.yaml"
is "$rc" 0 "a second import"
is "$(q "$T/two.db" "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('pod', 'pod_label') AND sql IS NOT NULL")" 5 \
	"... indexes all there"
done_testing
