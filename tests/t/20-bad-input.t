#!/usr/bin/env bash
# 20-bad-input.t — bad input of every kind: one message naming FILE:LINE:COL,
# the object and what is wrong, then "nothing was imported", exit status 1,
# and the database byte-for-byte unchanged (an existing one) or not created
# (a new one).  Also --skip-invalid, a bad later file in a directory, alias
# bombs and deep nesting, a missing input file and a missing FILE argument.
#
# Inputs are in tests/data/bad/ (messages name them relative to that
# directory); the huge nesting inputs are generated into $T.
. "$(dirname "$0")/../lib.sh"

D=$TESTS_DIR/data/bad
cd "$D" || { fail "cd $D"; done_testing; }

# A database that already holds a valid import.
BASE=$T/base.db
run "$KPLAN" import -q "$BASE" "$ROOT/examples"
is "$rc" 0 "setup: examples/ import into the base DB"
BASE_COUNTS=$(db_counts "$BASE")
like "$BASE_COUNTS" "1 batches, 8 nodes, " "setup: base DB holds the examples"

nlines() { if [ -z "$1" ]; then echo 0; else printf '%s\n' "$1" | wc -l | tr -d ' '; fi; }

# expect_bad DESC WANT... -- ARGS...
#   WANT[0] is the first line's prefix ("kplan: FILE:LINE:COL: OBJECT: "); the
#   others are substrings of the reason.  ARGS are the import's inputs (and
#   options).  Runs the import (a) on a copy of the base DB, (b) on a new path.
expect_bad() {
	local desc=$1 w
	shift
	local -a wants=()
	while [ "$1" != "--" ]; do wants+=("$1"); shift; done
	shift
	local db=$T/existing.db
	rm -f "$db" "$db"-*
	cp "$BASE" "$db"
	local before
	before=$(digest "$db")
	run "$KPLAN" import "$db" "$@"
	is "$rc" 1 "$desc: exit status 1"
	local first=${err%%$'\n'*}
	like "$first" "${wants[0]}" "$desc: the first stderr line is the error, with location and object"
	for w in "${wants[@]:1}"; do
		like "$first" "$w" "$desc: the error says '$w'"
	done
	is "$(nlines "$err")" 2 "$desc: one error message and the 'nothing was imported' line"
	like "$err" $'\nkplan: nothing was imported' "$desc: says nothing was imported"
	is "$(digest "$db")" "$before" "$desc: existing DB byte-for-byte unchanged"
	is "$(db_counts "$db")" "$BASE_COUNTS" "$desc: existing DB counts unchanged"
	local new=$T/new.db
	rm -f "$new" "$new"-*
	run "$KPLAN" import "$new" "$@"
	is "$rc" 1 "$desc (new DB): exit status 1"
	like "$err" "${wants[0]}" "$desc (new DB): same location and object"
	is "$(cd "$T" && ls -d new.db* 2>/dev/null)" "" "$desc (new DB): no database file left behind"
}

# ---- 1. malformed YAML, JSON, CSV ----
expect_bad "YAML bad indentation" \
	"kplan: yaml-bad-indent.yaml:5:13: " "mapping values are not allowed" -- yaml-bad-indent.yaml
expect_bad "YAML unclosed flow sequence" \
	"kplan: yaml-unclosed-flow.yaml:11:1: " "flow sequence" -- yaml-unclosed-flow.yaml
expect_bad "JSON missing comma" \
	"kplan: json-missing-comma.json:8:3: " "expected ','" -- json-missing-comma.json
expect_bad "JSON trailing garbage" \
	"kplan: json-trailing-garbage.json:6:3: " "invalid" -- json-trailing-garbage.json
expect_bad "CSV missing closing quote" \
	"kplan: csv-unclosed-quote.csv:3:4: " "missing closing quote" -- csv-unclosed-quote.csv

# ---- 2. wrong types ----
expect_bad "metadata.labels as a list" \
	"kplan: type-labels-list.yaml:7:3: Pod default/web: " "metadata.labels" "expected a mapping" \
	-- type-labels-list.yaml
expect_bad "spec.containers as a string" \
	"kplan: type-containers-string.yaml:7:15: Pod default/web: " "spec.containers" "expected a list" \
	-- type-containers-string.yaml
expect_bad "spec.replicas: \"three\"" \
	"kplan: type-replicas-string.yaml:7:13: Deployment default/web: " "spec.replicas" "expected an integer" \
	-- type-replicas-string.yaml
expect_bad "spec.unschedulable: maybe" \
	"kplan: type-unschedulable-maybe.yaml:6:18: Node n1: " "spec.unschedulable" "maybe" \
	-- type-unschedulable-maybe.yaml
expect_bad "spec.priority: 1.5" \
	"kplan: type-priority-float.yaml:7:13: Pod default/web: " "spec.priority" "expected an integer" \
	-- type-priority-float.yaml

# ---- 3. quantities and integers ----
R=spec.containers[0].resources.requests
expect_bad "cpu: 1Q" \
	"kplan: quantity-suffix-cpu.yaml:12:14: Pod default/web: " "$R.cpu" "invalid quantity" "'1Q'" \
	-- quantity-suffix-cpu.yaml
expect_bad "memory: 1KiB" \
	"kplan: quantity-suffix-memory.yaml:12:17: Pod default/web: " "$R.memory" "invalid quantity" "'1KiB'" \
	-- quantity-suffix-memory.yaml
expect_bad "cpu: -1" \
	"kplan: quantity-negative.yaml:12:14: Pod default/web: " "$R.cpu" "negative quantity" \
	-- quantity-negative.yaml
expect_bad "memory: 9999999999999999999999" \
	"kplan: quantity-overflow.yaml:12:17: Pod default/web: " "$R.memory" "out of range" \
	-- quantity-overflow.yaml
expect_bad "memory: 8Ei" \
	"kplan: quantity-overflow-8ei.yaml:12:17: Pod default/web: " "$R.memory" "out of range" \
	-- quantity-overflow-8ei.yaml
expect_bad "spec.priority beyond int64" \
	"kplan: int64-priority-overflow.yaml:7:13: Pod default/web: " "spec.priority" "out of range" \
	-- int64-priority-overflow.yaml

# ---- 4. missing names ----
expect_bad "Pod without name or generateName" \
	"kplan: missing-name-pod.yaml:4:3: Pod default/" "metadata.name" "required" -- missing-name-pod.yaml
expect_bad "Node without name" \
	"kplan: missing-name-node.yaml:4:3: Node " "metadata.name" "required" -- missing-name-node.yaml
expect_bad "CSV pod row with an empty name" \
	"kplan: missing-name-csv-pod.csv:3:2: " "missing pod name" -- missing-name-csv-pod.csv

# ---- 5. duplicates in one batch ----
expect_bad "same Pod twice in one file" \
	"kplan: dup-pod-one-file.yaml:11:1: Pod default/web: " "duplicate object" \
	"also defined at dup-pod-one-file.yaml:1" -- dup-pod-one-file.yaml
expect_bad "same Pod in two files" \
	"kplan: dup-pod-b.yaml:2:1: Pod default/web: " "duplicate object" \
	"also defined at dup-pod-a.yaml:1" -- dup-pod-a.yaml dup-pod-b.yaml
expect_bad "same node twice in a CSV" \
	"kplan: dup-node.csv:5:1: Node n1: " "duplicate object" "also defined at dup-node.csv:2" -- dup-node.csv

# ---- 6. binary junk, empty file, invalid UTF-8 ----
expect_bad "binary junk with a NUL byte" \
	"kplan: binary-junk.yaml:1:8: " "NUL byte" -- binary-junk.yaml
expect_bad "0-byte file" \
	"kplan: empty.yaml:1:1: " "empty file" -- empty.yaml
expect_bad "invalid UTF-8 in a label value" \
	"kplan: invalid-utf8-label.yaml:7:12: " "invalid UTF-8" "0xff" -- invalid-utf8-label.yaml

# ---- 7. semantic validation ----
# The location is the value of the field the message names.
expect_bad "toleration Exists with a value" \
	"kplan: sem-toleration-exists-value.yaml:13:12: Pod default/web: " "spec.tolerations[0].value" \
	"Exists" -- sem-toleration-exists-value.yaml
expect_bad "taint effect Sometimes" \
	"kplan: sem-taint-effect.yaml:9:13: Node n1: " "spec.taints[0].effect" "'Sometimes'" \
	-- sem-taint-effect.yaml
NT=spec.affinity.nodeAffinity.required.nodeSelectorTerms[0]
expect_bad "matchExpressions operator Like" \
	"kplan: sem-operator-like.yaml:16:23: Pod default/web: " "matchExpressions[0].operator" "'Like'" \
	-- sem-operator-like.yaml
expect_bad "operator In with no values" \
	"kplan: sem-in-no-values.yaml:17:21: Pod default/web: " "matchExpressions[0].values" "non-empty" \
	-- sem-in-no-values.yaml
expect_bad "topologySpreadConstraint maxSkew 0" \
	"kplan: sem-maxskew-zero.yaml:11:14: Pod default/web: " "spec.topologySpreadConstraints[0].maxSkew" \
	"at least 1" -- sem-maxskew-zero.yaml
expect_bad "matchFields key other than metadata.name" \
	"kplan: sem-matchfields-key.yaml:15:18: Pod default/web: " "$NT.matchFields[0].key" "metadata.name" \
	"'metadata.labels'" -- sem-matchfields-key.yaml

# ---- 8. alias bomb and deep nesting: refused, quickly ----
ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(ms)
expect_bad "alias bomb (9 levels x 9)" \
	"kplan: alias-bomb.yaml:15:7: " "alias expansion" -- alias-bomb.yaml
el=$(( $(ms) - t0 ))
ok $(( el < 5000 ? 0 : 1 )) "alias bomb refused within seconds (both runs: ${el} ms)"

{
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: default\n  annotations:\n    x: '
	printf '%.0s[' $(seq 10000)
	printf '%.0s]' $(seq 10000)
	printf '\n'
} >"$T/deep.yaml"
# root mapping = level 1, metadata 2, annotations 3: the 510th '[' (column
# 8 + 509) is level 513
t0=$(ms)
expect_bad "10,000-deep flow nesting (YAML)" \
	"kplan: $T/deep.yaml:7:517: " "nesting deeper" -- "$T/deep.yaml"
el=$(( $(ms) - t0 ))
ok $(( el < 5000 ? 0 : 1 )) "deep YAML nesting refused within seconds (both runs: ${el} ms)"

{
	printf '%.0s{"a":' $(seq 10000)
	printf '1'
	printf '%.0s}' $(seq 10000)
	printf '\n'
} >"$T/deep.json"
# the 513th '{' is at column 5 * 512 + 1
t0=$(ms)
expect_bad "10,000-deep nesting (JSON)" \
	"kplan: $T/deep.json:1:2561: " "nesting deeper" -- "$T/deep.json"
el=$(( $(ms) - t0 ))
ok $(( el < 5000 ? 0 : 1 )) "deep JSON nesting refused within seconds (both runs: ${el} ms)"

# ---- 9. not an object ----
expect_bad "top-level list" \
	"kplan: toplevel-list.yaml:6:1: " "expected a Kubernetes object" -- toplevel-list.yaml
expect_bad "top-level scalar" \
	"kplan: toplevel-scalar.yaml:1:5: " "expected a Kubernetes object" -- toplevel-scalar.yaml
expect_bad "no kind, no recognisable shape" \
	"kplan: no-kind.yaml:1:1: " "cannot tell what this is" -- no-kind.yaml

# ---- 10. --skip-invalid ----
db=$T/skip.db
rm -f "$db"
cp "$BASE" "$db"
base_pods=$(q "$BASE" "SELECT count(*) FROM pod")
run "$KPLAN" import --skip-invalid "$db" skip-mixed.yaml
is "$rc" 0 "--skip-invalid: exit status 0"
like "$err" "kplan: skipped invalid object: skip-mixed.yaml:25:14: Pod default/bad-1: " \
	"--skip-invalid: the bad pod is reported with its location"
like "$err" "$R.cpu: invalid quantity '1Q'" "--skip-invalid: and with the reason"
is "$(nlines "$err")" 1 "--skip-invalid: one line on stderr"
like "$out" "2 pods" "--skip-invalid: summary counts 2 pods"
like "$out" "1 invalid object skipped" "--skip-invalid: summary counts the skipped one"
is "$(q "$db" "SELECT count(*) FROM pod")" "$((base_pods + 2))" "--skip-invalid: 2 pods more in the DB"
is "$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM pod WHERE namespace = 'default' AND name IN ('good-1', 'good-2', 'bad-1') ORDER BY name)")" \
	"good-1 good-2" "--skip-invalid: the good pods are there, the bad one is not"
db=$T/skip-new.db
rm -f "$db"
run "$KPLAN" import --skip-invalid "$db" skip-mixed.yaml
is "$rc" 0 "--skip-invalid (new DB): exit status 0"
is "$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM pod ORDER BY name)")" \
	"good-1 good-2" "--skip-invalid (new DB): exactly the 2 good pods"

# ---- 11. a directory whose LAST file is bad ----
expect_bad "directory with a bad later file" \
	"kplan: later-bad/30-bad.yaml:12:17: Pod default/later-bad: " "$R.memory" "invalid quantity" -- later-bad
# and the earlier good files are not half-imported
db=$T/existing.db
is "$(q "$db" "SELECT count(*) FROM node WHERE name LIKE 'later-%'") $(q "$db" "SELECT count(*) FROM pod WHERE name LIKE 'later-%'")" \
	"0 0" "directory with a bad later file: nothing from the earlier files"

# ---- missing input file; no FILE ----
expect_bad "missing input file" "kplan: cannot open 'nope.yaml'" -- nope.yaml
expect_bad "good file, then a missing one" "kplan: cannot open 'nope.yaml'" -- dup-pod-a.yaml nope.yaml

rm -f "$T/x.db"
run "$KPLAN" import "$T/x.db"
is "$rc" 64 "import DB without FILE: exit status 64"
like "$err" "missing FILE" "import DB without FILE: says so"
is "$(digest "$T/x.db")" absent "import DB without FILE: no database created"
run "$KPLAN" import
is "$rc" 64 "import without DB and FILE: exit status 64"

done_testing
