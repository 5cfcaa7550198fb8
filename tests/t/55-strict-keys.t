#!/usr/bin/env bash
# 55-strict-keys.t — duplicate mapping keys are refused, as kubectl's strict
# decoding does: in YAML and JSON imports (block and flow mappings, nested
# deep, one item of a List, `1` vs "1", mappings small and large), in a
# --config KubeSchedulerConfiguration, one inside an imported ConfigMap and a
# --rebalance-config policy.  The message is FILE:LINE:COL of the second key,
# the object, and the line and column of the first; exit status 1, nothing
# imported, the database's dump unchanged.  Keys a merge key (<<) brings in
# are overridden by explicit ones (not duplicates); --skip-invalid skips the
# object and goes on.
#
# Inputs are written into $T; messages name them relative to it.
. "$(dirname "$0")/../lib.sh"

cd "$T" || { fail "cd $T"; done_testing; }

BASE=$T/base.db
run "$KPLAN" import -q "$BASE" "$ROOT/examples"
is "$rc" 0 "setup: examples/ import into the base DB"
BASE_COUNTS=$(db_counts "$BASE")
like "$BASE_COUNTS" "1 batches, 8 nodes, " "setup: base DB holds the examples"
BASE_DUMP=$(sqlite3 "$BASE" .dump | sha256sum)

# expect_dup DESC WANT FILE...: an import of FILE... into a copy of the base
# DB fails with exactly WANT as its first stderr line, imports nothing and
# leaves the database's dump as it was
expect_dup() {
	local desc=$1 want=$2
	shift 2
	local db=$T/existing.db
	rm -f "$db" "$db"-*
	cp "$BASE" "$db"
	run "$KPLAN" import "$db" "$@"
	is "$rc" 1 "$desc: exit status 1"
	is "${err%%$'\n'*}" "$want" "$desc: the message names both positions and the object"
	like "$err" $'\nkplan: nothing was imported' "$desc: says nothing was imported"
	is "$(sqlite3 "$db" .dump | sha256sum)" "$BASE_DUMP" "$desc: database dump unchanged"
	is "$(db_counts "$db")" "$BASE_COUNTS" "$desc: database counts unchanged"
}

POD_TAIL='spec:
  containers: [{name: c, image: x}]'

# ---- 1. metadata.name twice ----
cat >name.yaml <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: a
  name: b
$POD_TAIL
EOF
expect_dup "metadata.name twice" \
	'kplan: name.yaml:5:3: Pod default/a: duplicate key "name" (first at line 4, column 3)' name.yaml

# ---- 2. a flow mapping ----
cat >flow.yaml <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: shop
  labels: {app: x, app: y}
$POD_TAIL
EOF
expect_dup "labels: {app: x, app: y}" \
	'kplan: flow.yaml:6:20: Pod shop/web: duplicate key "app" (first at line 6, column 12)' flow.yaml

# ---- 3. JSON, as kubectl get -o json writes it ----
cat >pod.json <<'EOF'
{
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {
        "name": "api",
        "namespace": "shop",
        "annotations": {
            "a": "1",
            "b": "2",
            "a": "3"
        }
    },
    "spec": {
        "containers": [
            {
                "name": "c",
                "image": "x"
            }
        ]
    }
}
EOF
expect_dup "JSON annotations" \
	'kplan: pod.json:10:13: Pod shop/api: duplicate key "a" (first at line 8, column 13)' pod.json

# ---- 4. nested deep: a container's resource limits ----
cat >deep.yaml <<'EOF'
apiVersion: v1
kind: Pod
metadata: {name: deep}
spec:
  containers:
  - name: c
    image: x
  - name: d
    image: x
    resources:
      requests: {cpu: 100m}
      limits:
        memory: 1Gi
        cpu: 200m
        memory: 2Gi
EOF
expect_dup "containers[1].resources.limits" \
	'kplan: deep.yaml:15:9: Pod default/deep: duplicate key "memory" (first at line 13, column 9)' deep.yaml

# ---- 5. one item of a List: the message names that item ----
cat >list.yaml <<'EOF'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: good, namespace: shop}
  spec: {containers: [{name: c, image: x}]}
- apiVersion: v1
  kind: Node
  metadata:
    name: n9
    labels:
      zone: a
      disk: ssd
      zone: b
- apiVersion: v1
  kind: Pod
  metadata: {name: later, namespace: shop}
  spec: {containers: [{name: c, image: x}]}
EOF
expect_dup "a List item" \
	'kplan: list.yaml:15:7: Node n9: duplicate key "zone" (first at line 13, column 7)' list.yaml
is "$(q "$T/existing.db" "SELECT count(*) FROM pod WHERE name IN ('good', 'later')")" 0 \
	"a List item: the item before it is not imported either"

# a typed list's items carry no kind: named from the list's kind
cat >podlist.json <<'EOF'
{"apiVersion": "v1", "kind": "PodList", "items": [
 {"metadata": {"name": "p1", "namespace": "ns1"}, "spec": {"containers": [{"name": "c", "image": "x"}]}},
 {"metadata": {"name": "p2", "namespace": "ns1", "name": "p3"}, "spec": {"containers": [{"name": "c", "image": "x"}]}}
]}
EOF
expect_dup "a PodList item" \
	'kplan: podlist.json:3:50: Pod ns1/p2: duplicate key "name" (first at line 3, column 16)' podlist.json

# the List itself, outside its items: a parse error, no object
cat >listkeys.yaml <<'EOF'
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: good, namespace: shop}
  spec: {containers: [{name: c, image: x}]}
apiVersion: v1
EOF
expect_dup "the List's own keys" \
	'kplan: listkeys.yaml:8:1: duplicate key "apiVersion" (first at line 1, column 1)' listkeys.yaml

# ---- 6. 1 and "1" are the same key (all keys are strings in JSON) ----
cat >numkey.yaml <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: num
  labels:
    1: one
    "1": uno
$POD_TAIL
EOF
expect_dup '1 and "1"' \
	'kplan: numkey.yaml:7:5: Pod default/num: duplicate key "1" (first at line 6, column 5)' numkey.yaml

# ---- 7. large mappings (the hashed check): 40 labels, 2,000 annotations ----
{
	printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  labels:\n'
	for i in $(seq 1 40); do printf '    k%02d: v\n' "$i"; done
	printf '    k03: again\n%s\n' "$POD_TAIL"
} >big.yaml
expect_dup "the 41st of 41 labels repeats the 3rd" \
	'kplan: big.yaml:46:5: Pod default/big: duplicate key "k03" (first at line 8, column 5)' big.yaml
{
	printf '{"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "bigjson", "annotations": {\n'
	for i in $(seq 1 2000); do printf '"a%d": "x",\n' "$i"; done
	printf '"a1999": "y"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}}\n'
} >big.json
expect_dup "2,001 JSON annotations, the last repeats one" \
	'kplan: big.json:2002:1: Pod default/bigjson: duplicate key "a1999" (first at line 2000, column 1)' big.json
# the same sizes without a repeat import
sed '$d' big.json >ok.json && printf '"a2001": "y"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}}\n' >>ok.json
sed 's/^    k03: again$/    k41: v/' big.yaml >ok.yaml
db=$T/ok.db
rm -f "$db"
run "$KPLAN" import "$db" ok.json ok.yaml
is "$rc" 0 "2,001 annotations and 41 labels, all different: imported${err:+ ($err)}"
is "$(q "$db" "SELECT count(*) FROM pod_label")" 41 "all different: the 41 labels are there"

# several duplicates: the one whose second key comes first is reported
cat >two.yaml <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: two
  name: three
  labels: {x: 1, x: 2}
$POD_TAIL
EOF
expect_dup "two duplicates, outer one first" \
	'kplan: two.yaml:5:3: Pod default/two: duplicate key "name" (first at line 4, column 3)' two.yaml

# ---- 8. merge keys: an explicit key overrides a merged one ----
cat >merge.yaml <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: merged
  labels: &base {app: merged, tier: be}
spec:
  nodeSelector:
    <<: *base
    app: override
  containers: [{name: c, image: x}]
EOF
db=$T/merge.db
rm -f "$db"
run "$KPLAN" import "$db" merge.yaml
is "$rc" 0 "<<: *base, then app: explicit: accepted${err:+ ($err)}"
is "$(q "$db" "SELECT group_concat(key || '=' || value, ' ') FROM (SELECT * FROM pod_node_selector ORDER BY key)")" \
	"app=override tier=be" "the explicit key wins over the merged one"
# two explicit keys beside a merge key are still two
sed 's/^    app: override$/    app: override\n    app: again/' merge.yaml >merge2.yaml
expect_dup "a merge key, then the same explicit key twice" \
	'kplan: merge2.yaml:10:5: Pod default/merged: duplicate key "app" (first at line 9, column 5)' merge2.yaml
# two merge keys are two equal keys (one <<: [*a, *b] merges both)
cat >merge3.yaml <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: m3
  labels: &a {app: m3}
  annotations: &b {note: x}
spec:
  nodeSelector:
    <<: *a
    <<: *b
  containers: [{name: c, image: x}]
EOF
expect_dup "<<: *a then <<: *b" \
	'kplan: merge3.yaml:10:5: Pod default/m3: duplicate key "<<" (first at line 9, column 5)' merge3.yaml

# ---- 9. --skip-invalid: the object is skipped and reported ----
cat >mixed.yaml <<EOF
apiVersion: v1
kind: Pod
metadata: {name: good-1}
$POD_TAIL
---
apiVersion: v1
kind: Pod
metadata: {name: bad-1, labels: {a: 1, b: 2, a: 3}}
$POD_TAIL
---
apiVersion: v1
kind: Pod
metadata: {name: good-2}
$POD_TAIL
EOF
db=$T/skip.db
rm -f "$db"
cp "$BASE" "$db"
run "$KPLAN" import --skip-invalid "$db" mixed.yaml
is "$rc" 0 "--skip-invalid: exit status 0"
is "$err" 'kplan: skipped invalid object: mixed.yaml:9:46: Pod default/bad-1: duplicate key "a" (first at line 9, column 34)' \
	"--skip-invalid: the object with the duplicate is reported, with both positions"
like "$out" "1 invalid object skipped" "--skip-invalid: the summary counts it"
is "$(q "$db" "SELECT group_concat(name, ' ') FROM (SELECT name FROM pod WHERE name IN ('good-1', 'good-2', 'bad-1') ORDER BY name)")" \
	"good-1 good-2" "--skip-invalid: the good pods are imported, the bad one is not"
run "$KPLAN" import --skip-invalid "$T/skip2.db" listkeys.yaml
is "$rc" 1 "--skip-invalid: a duplicate in a List's own keys still stops the import"

# ---- 10. configuration files ----
cat >sched.yaml <<'EOF'
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: NodeResourcesFit
        weight: 1
        weight: 2
EOF
db=$T/plan.db
rm -f "$db"
cp "$BASE" "$db"
run "$KPLAN" plan --config sched.yaml "$db"
is "$rc" 1 "plan --config with a duplicate key: exit status 1"
is "${err%%$'\n'*}" 'kplan: sched.yaml:10:9: duplicate key "weight" (first at line 9, column 9)' \
	"plan --config: the message names both positions"
is "$(sqlite3 "$db" .dump | sha256sum)" "$BASE_DUMP" "plan --config: database dump unchanged"

# a KubeSchedulerConfiguration in an imported ConfigMap
cat >cm.yaml <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: sched
  namespace: kube-system
data:
  config.yaml: |
    apiVersion: kubescheduler.config.k8s.io/v1
    kind: KubeSchedulerConfiguration
    percentageOfNodesToScore: 50
    profiles: [{schedulerName: default-scheduler}]
    percentageOfNodesToScore: 60
EOF
expect_dup "a KubeSchedulerConfiguration in a ConfigMap" \
	'kplan: cm.yaml:12:5: ConfigMap kube-system/sched data.config.yaml: duplicate key "percentageOfNodesToScore" (first at line 10, column 5)' \
	cm.yaml

# a descheduler policy (--rebalance-config): a usage error, as its other errors
cat >policy.yaml <<'EOF'
apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
maxNoOfPodsToEvictPerNode: 1
profiles: []
maxNoOfPodsToEvictPerNode: 2
EOF
run "$KPLAN" plan -q --mode rebalance --rebalance-config policy.yaml "$db"
is "$rc" 64 "--rebalance-config with a duplicate key: exit status 64"
is "${err%%$'\n'*}" 'kplan plan: policy.yaml:5:1: --rebalance-config: duplicate key "maxNoOfPodsToEvictPerNode" (first at line 3, column 1)' \
	"--rebalance-config: the message names both positions"
is "$(sqlite3 "$db" .dump | sha256sum)" "$BASE_DUMP" "--rebalance-config: database dump unchanged"

# the same files without the duplicates are accepted (a plan run is written)
sed '$d' sched.yaml >sched-ok.yaml
run "$KPLAN" plan -q --config sched-ok.yaml "$db"
is "$rc" 0 "plan --config without the duplicate: accepted${err:+ ($err)}"
sed '$d' policy.yaml >policy-ok.yaml
run "$KPLAN" plan -q --mode rebalance --rebalance-config policy-ok.yaml "$db"
is "$rc" 0 "--rebalance-config without the duplicate: accepted${err:+ ($err)}"

done_testing
