#!/usr/bin/env bash
# 39-config.t — which scheduler configuration a plan runs with (issue 14,
# part 8): the imported ones merged per schedulerName, kube's default profile
# for default-scheduler when none names it, a profile kplan cannot run leaving
# only its own pods unplanned (with file:line:col of the original YAML, a
# ConfigMap's too), `--config default`, `--config` of a ConfigMap, the summary
# naming the configuration, and `-q --format json` printing the JSON.
. "$(dirname "$0")/../lib.sh"
D="$TESTS_DIR/data/config"
case $KPLAN in /*) ;; *) KPLAN=$PWD/$KPLAN ;; esac
cd "$D" || exit 1   # relative paths: the messages name them as given

# rows DB RUN [WHERE]: a run's placements (pod:action:node:score), comparable
# between runs; no rows never equals no rows
rows() {
	q "$1" "SELECT COALESCE(group_concat(pod || ':' || action || ':' || node || ':' || score, ' '), 'no rows ' || random())
	        FROM (SELECT p.name AS pod, pl.action, COALESCE(n.name, '-') AS node, COALESCE(pl.score, '-') AS score
	              FROM placement pl JOIN pod p ON p.id = pl.pod_id LEFT JOIN node n ON n.id = pl.node_id
	              WHERE pl.run_id = $2 ${3:+AND $3} ORDER BY p.name)"
}
# reason DB RUN POD-LIKE: the message of the first such pod in the run
reason() {
	q "$1" "SELECT pl.reason FROM placement pl JOIN pod p ON p.id = pl.pod_id WHERE pl.run_id = $2 AND p.name LIKE '$3'
	        ORDER BY p.name LIMIT 1"
}
last() { q "$1" "SELECT max(id) FROM run"; }

# ==== the issue's reproduction: another scheduler's ConfigMap in the directory ====
db="$T/c.db"
"$KPLAN" import -q "$db" cluster || fail "import cluster/"
is "$(q "$db" "SELECT yaml_file FROM scheduler_config")" "cluster/my-scheduler-config.yaml" \
	"import keeps the configuration's own YAML and its file"
run "$KPLAN" plan "$db"
is "$rc" 0 "plan exits 0 with another scheduler's out-of-tree plugin imported"
like "$out" "run 1: 5 pending pods: 3 placed, 0 unschedulable, 2 left to other schedulers;" "default-scheduler's 3 pods placed"
like "$out" "; configuration: default (default-scheduler) + imported (cluster/my-scheduler-config.yaml[ConfigMap kube-system/my-scheduler-config data.my-scheduler-config.yaml]#0: profile my-scheduler [not run])" \
	"the summary names kube's default profile and the imported one kplan cannot run"
is "$err" "kplan: warning: config: 2 pending pod(s) not planned: an imported profile of theirs kplan cannot run (the pods' messages say why; run.config notRun)" \
	"one run warning with the count"
is "$(q "$db" "SELECT kind || ': ' || message FROM run_warning WHERE run_id = 1")" \
	"config: 2 pending pod(s) not planned: an imported profile of theirs kplan cannot run (the pods' messages say why; run.config notRun)" \
	"the warning is a run_warning row"
is "$(rows "$db" 1 "p.name LIKE 'batch-%'" | sed -E 's/batch-[a-z0-9-]+/batch/g')" "batch:keep:-:- batch:keep:-:-" \
	"my-scheduler's 2 pods: keep rows without a node"
is "$(q "$db" "SELECT count(*) || ' ' || group_concat(DISTINCT pl.reason) FROM placement pl JOIN pod p ON p.id = pl.pod_id
               WHERE pl.run_id = 1 AND p.name LIKE 'batch-%'")" \
	"2 not planned: profile 'my-scheduler' uses plugin 'NodeNumber' kplan cannot run (cluster/my-scheduler-config.yaml:18:23)" \
	"my-scheduler's pods: not planned, the message names the plugin and its file:line:col"
is "$(q "$db" "SELECT ignored FROM run WHERE id = 1")" 2 "counted as left to other schedulers in the run row"
is "$(q "$db" "SELECT json_extract(config, '\$.notRun[0].schedulerName') || ' ' || json_array_length(config, '\$.profiles') || ' ' ||
               json_extract(config, '\$.profiles[0].schedulerName') FROM run WHERE id = 1")" "my-scheduler 1 default-scheduler" \
	"run.config: one profile run (default-scheduler), my-scheduler under notRun"
# default-scheduler's pods are planned exactly as with kube's default profile
run "$KPLAN" plan --config default "$db"
is "$rc" 0 "--config default: exit 0"
like "$out" "; configuration: default" "--config default: the summary says so"
like "$err" "scheduler: 2 pending pod(s) name a schedulerName no profile has: left alone" \
	"--config default: my-scheduler's pods are another scheduler's"
is "$(rows "$db" 1 "p.name LIKE 'web-%'")" "$(rows "$db" 2 "p.name LIKE 'web-%'")" \
	"default-scheduler's pods: the same rows as with --config default"
is "$(rows "$db" 1 "p.name LIKE 'web-%'" | grep -o ':bind:n' | wc -l | tr -d ' ')" 3 "(3 bind rows)"

# an explicit --config stays strict: the user asked for that file
runs=$(last "$db")
run "$KPLAN" plan --config cluster/my-scheduler-config.yaml "$db"
is "$rc" 1 "--config with an out-of-tree plugin (ConfigMap form): exit 1"
like "$err" "kplan: cluster/my-scheduler-config.yaml:18:23: KubeSchedulerConfiguration: profiles[0].plugins.filter: plugin 'NodeNumber' is not an in-tree kube-scheduler plugin" \
	"--config: the error points at the ConfigMap file's line and column"
like "$err" "kplan: nothing was written" "--config error: nothing written"
is "$(last "$db")" "$runs" "--config error: no run"

# ==== --config default equals a plan without any configuration ====
db0="$T/none.db"
"$KPLAN" import -q "$db0" cluster/nodes.yaml cluster/apps.yaml || fail "import without config"
run "$KPLAN" plan "$db0"
like "$out" "; configuration: default" "nothing imported: configuration default"
"$KPLAN" plan -q --config default "$db0" 2>/dev/null
is "$(rows "$db0" 2)" "$(rows "$db0" 1)" "--config default: the same rows as no configuration at all"
is "$(q "$db0" "SELECT count(*) || ' runs; ' || count(DISTINCT config) || ' config; ' || group_concat(DISTINCT config_source) FROM run")" \
	"2 runs; 1 config; default" \
	"--config default: the same run.config, config_source default"
# a file named default is ./default
cp plain-most.yaml "$T/default"
run sh -c "cd '$T' && '$KPLAN' plan --config ./default '$db0'"
like "$out" "; configuration: ./default" "--config ./default reads the file named default"
run sh -c "cd '$T' && '$KPLAN' plan --config default '$db0'"
like "$out" "; configuration: default" "--config default is kube's profile even beside a file named default"

# ==== --config of a ConfigMap equals --config of the same document as a file ====
"$KPLAN" plan -q --config plain-most.yaml "$db" 2>/dev/null
a=$(last "$db")
run "$KPLAN" plan --config cm-most.yaml "$db"
b=$(printf '%s\n' "$out" | sed -n 's/^run \([0-9]*\):.*/\1/p')   # empty when no run was written
is "$rc" 0 "--config cm-most.yaml (a ConfigMap): exit 0"
like "$out" "; configuration: cm-most.yaml" "the summary names the file"
is "$(rows "$db" "$b")" "$(rows "$db" "$a")" "ConfigMap and plain file: the same rows"
is "$(q "$db" "SELECT count(*) || ' ' || count(DISTINCT json_remove(config, '\$.source')) || ' ' || json_extract(config, '\$.profiles[0].scoringStrategy.type')
              FROM run WHERE id IN ($a, ${b:-0})")" "2 1 MostAllocated" "ConfigMap and plain file: the same profiles"
is "$(rows "$db" "$b" "p.name LIKE 'batch-%'" | grep -o ':bind:' | wc -l | tr -d ' ')" 2 "my-scheduler's pods are planned by its profile"
[ "$(rows "$db" "$b" "p.name LIKE 'web-%'")" != "$(rows "$db" 2 "p.name LIKE 'web-%'")" ]
ok $? "default-scheduler's pods are scored by the file's profile (MostAllocated), not kube's default"
# errors of a ConfigMap given to --config point into the file
run "$KPLAN" plan --config cm-invalid.yaml "$db"
is "$rc" 1 "--config cm-invalid.yaml: exit 1"
like "$err" "kplan: cm-invalid.yaml:15:21: KubeSchedulerConfiguration: profiles[0].plugins.score: weight of 'ImageLocality' must be in 0..100" \
	"--config of a ConfigMap: the error at the file's line and column"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n' >"$T/empty-cm.yaml"
run "$KPLAN" plan --config "$T/empty-cm.yaml" "$db"
is "$rc:$err" "1:kplan: $T/empty-cm.yaml:1:1: ConfigMap: no KubeSchedulerConfiguration in its data
kplan: nothing was written" "--config of a ConfigMap without a configuration: refused"

# ==== an invalid imported ConfigMap configuration: exact position, only its pods ====
db2="$T/invalid.db"
cat >"$T/batch-pod.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: batch-job, namespace: jobs}
spec:
  schedulerName: batch-scheduler
  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
EOF
"$KPLAN" import -q "$db2" cluster/nodes.yaml cluster/apps.yaml cm-invalid.yaml "$T/batch-pod.yaml" || fail "import invalid"
run "$KPLAN" plan "$db2"
is "$rc" 0 "an invalid imported profile: plan exits 0"
is "$(reason "$db2" 1 batch-job)" \
	"not planned: profile 'batch-scheduler' is invalid: profiles[0].plugins.score: weight of 'ImageLocality' must be in 0..100 (cm-invalid.yaml:15:21)" \
	"its pod says why, at the ConfigMap file's line and column"
like "$out" "6 pending pods: 3 placed, 0 unschedulable, 3 left to other schedulers" "default-scheduler's pods placed"
like "$err" "config: 1 pending pod(s) not planned" "the warning counts it"

# import's own errors inside a ConfigMap's literal block: the file's line and column too
sed 's#kubescheduler.config.k8s.io/v1$#kubescheduler.config.k8s.io/v1beta2#' cluster/my-scheduler-config.yaml >"$T/v1beta2-cm.yaml"
run "$KPLAN" import "$T/v.db" "$T/v1beta2-cm.yaml"
is "$rc" 1 "import of a ConfigMap holding a v1beta2 configuration: exit 1"
like "$err" "kplan: $T/v1beta2-cm.yaml:9:17: ConfigMap kube-system/my-scheduler-config data.my-scheduler-config.yaml: KubeSchedulerConfiguration kubescheduler.config.k8s.io/v1beta2: apiVersion: 'kubescheduler.config.k8s.io/v1beta2' is not supported" \
	"import: the error at the ConfigMap file's line and column, the ConfigMap named"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\ndata:\n  c.yaml: |\n    kind: KubeSchedulerConfiguration\n    profiles: [a\n    b: c\n' >"$T/syntax-cm.yaml"
run "$KPLAN" import "$T/v.db" "$T/syntax-cm.yaml"
like "$rc:$err" "1:kplan: $T/syntax-cm.yaml:8:" "import: a YAML error in the block at the file's line"

# ==== several imported configurations: the latest naming a scheduler wins ====
db3="$T/merge.db"
"$KPLAN" import -q "$db3" cluster || fail "import cluster/ again"
"$KPLAN" import -q "$db3" plain-most.yaml || fail "import plain-most.yaml"
run "$KPLAN" plan "$db3"
like "$out" "5 pending pods: 5 placed, 0 unschedulable;" "a later import naming my-scheduler: its pods are planned"
like "$out" "; configuration: imported (plain-most.yaml#0: profiles default-scheduler, my-scheduler)" \
	"the summary names the document used (the ConfigMap's profile is shadowed)"
is "$(q "$db3" "SELECT json_extract(config, '\$.profiles[0].scoringStrategy.type') || ' ' || COALESCE(json_extract(config, '\$.notRun'), 'none')
                FROM run WHERE id = 1")" "MostAllocated none" "the later document's profiles are the run's"
"$KPLAN" import -q "$db3" cluster/my-scheduler-config.yaml || fail "import the ConfigMap last"
run "$KPLAN" plan "$db3"
like "$out" "5 pending pods: 3 placed, 0 unschedulable, 2 left to other schedulers;" "the ConfigMap imported last: my-scheduler not run again"
like "$out" "; configuration: imported (plain-most.yaml#0: profile default-scheduler; cluster/my-scheduler-config.yaml[ConfigMap kube-system/my-scheduler-config data.my-scheduler-config.yaml]#0: profile my-scheduler [not run])" \
	"per name: default-scheduler from plain-most.yaml, my-scheduler from the ConfigMap"

# ==== what kplan cannot run, in a plain imported file ====
db4="$T/cannot.db"
cat >"$T/others.yaml" <<'EOF'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: my-scheduler
  pluginConfig:
  - name: Coscheduling
    args: {permitWaitingTimeSeconds: 10}
---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: http://extender:8888
  filterVerb: filter
  prioritizeVerb: prioritize
profiles:
- schedulerName: batch-scheduler
EOF
"$KPLAN" import -q "$db4" cluster/nodes.yaml cluster/apps.yaml "$T/others.yaml" "$T/batch-pod.yaml" || fail "import others"
run "$KPLAN" plan "$db4"
is "$rc" 0 "unknown plugin args and an invalid HTTP extender (prioritizeVerb without weight) imported: exit 0"
is "$(reason "$db4" 1 'batch-%')" \
	"not planned: profile 'my-scheduler' configures plugin 'Coscheduling' kplan cannot run ($T/others.yaml:6:11)" \
	"pluginConfig of an unknown plugin: named, with its position"
is "$(reason "$db4" 1 batch-job)" \
	"not planned: profile 'batch-scheduler' has HTTP extenders kplan cannot use ($T/others.yaml:12:3)" \
	"an HTTP extender kube would refuse: every profile of that document, with the position"
like "$err" "config: 3 pending pod(s) not planned" "the warning counts both schedulers' pods"

# ==== a database made before scheduler_config.yaml existed ====
db5="$T/old.db"
"$KPLAN" import -q "$db5" cluster || fail "import for old"
sqlite3 "$db5" "ALTER TABLE scheduler_config DROP COLUMN yaml; ALTER TABLE scheduler_config DROP COLUMN yaml_file" ||
	fail "drop the columns"
run "$KPLAN" plan "$db5"
is "$rc" 0 "older database: plan exits 0"
like "$(reason "$db5" 1 'batch-%')" "(imported as scheduler_config 1):1:" \
	"older database: the position refers to the stored JSON"
"$KPLAN" import -q "$db5" cluster/my-scheduler-config.yaml || fail "import into the older database"
is "$(q "$db5" "SELECT yaml_file FROM scheduler_config")" "cluster/my-scheduler-config.yaml" "import adds the columns"
"$KPLAN" plan -q "$db5" 2>/dev/null
like "$(reason "$db5" 2 'batch-%')" "(cluster/my-scheduler-config.yaml:18:23)" \
	"then the position is the file's again"
# a stale yaml (written over by an older kplan) is not trusted: the JSON is read
sqlite3 "$db5" "UPDATE scheduler_config SET yaml = replace(yaml, 'NodeNumber', 'NodeName')" || fail "stale yaml"
"$KPLAN" plan -q "$db5" 2>/dev/null
like "$(reason "$db5" 3 'batch-%')" "uses plugin 'NodeNumber'" \
	"a yaml that no longer matches the document is not used"

# ==== capacity takes --config default too ====
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: one}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]}\n' >"$T/one.yaml"
run "$KPLAN" capacity --config default --pod "$T/one.yaml" "$db0"
is "$rc" 0 "capacity --config default: exit 0"
like "$out" "more replicas of $T/one.yaml" "capacity --config default: answers"

# ==== -q --format json prints the JSON ====
json() { python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null; }
"$KPLAN" report -q --format json "$db" | json
ok $? "report -q --format json prints JSON"
"$KPLAN" capacity -q --format json --pod "$T/one.yaml" "$db0" 2>/dev/null | json
ok $? "capacity -q --format json prints JSON"
is "$("$KPLAN" capacity -q --pod "$T/one.yaml" "$db0" 2>/dev/null)" "" "capacity -q (text) prints nothing"
"$KPLAN" fix -q --format json "$db0" 2>/dev/null | json
ok $? "fix -q --format json prints JSON"

done_testing
