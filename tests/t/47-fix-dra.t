#!/usr/bin/env bash
# 47-fix-dra.t — a node template that carries its ResourceSlices (issue 17):
# --add-nodes, `kplan capacity --nodes-needed --node-template` and `kplan fix
# --node-template` on tests/data/dra/one-node-two-gpus.yaml (node n1 with two
# GPUs, a Deployment of 4 replicas claiming one GPU each from a
# ResourceClaimTemplate: 2 placed, 2 unschedulable).  Each added node gets a
# copy of the template's slices (nodeName the added node's, pool and slice
# named TEMPLATE-NAME-NODE) in TEMP copies: the imported tables unchanged.
# Answers worked out by hand: a template node with 2 GPUs -> 1 node; with 1
# GPU -> 2 nodes; without slices -> never fits (as 15-import-dra.t checks).
# Slices that are not node-local to the template's Node are refused with
# FILE:LINE:COL; so are slices on a database without the slice tables.
. "$(dirname "$0")/../lib.sh"

DB="$T/gpu.db"
"$KPLAN" import -q "$DB" "$TESTS_DIR/data/dra/one-node-two-gpus.yaml" || fail "import"
before=$(sqlite3 "$DB" ".dump resource_slice slice_device device_attribute slice_counter" | sha256sum)

# tmpl FILE DEVICES [SLICE SPEC LINE]: a Node `big` and a ResourceSlice of DEVICES
tmpl() {
	cat >"$1" <<YAML
apiVersion: v1
kind: Node
metadata: {name: big}
status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110"}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: big-gpus}
spec:
  driver: gpu.example.com
  ${3:-nodeName: big}
  pool: {name: big, generation: 1, resourceSliceCount: 1}
  devices: $2
YAML
}
tmpl "$T/two.yaml" "[{name: gpu-0, attributes: {model: {string: A100}}}, {name: gpu-1, attributes: {model: {string: A100}}}]"
tmpl "$T/one.yaml" "[{name: gpu-0}]"
cat >"$T/none.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: big}
status: {allocatable: {cpu: "64", memory: 256Gi, pods: "110"}}
YAML

# ---- capacity --nodes-needed ----
run "$KPLAN" capacity --nodes-needed --node-template "$T/two.yaml" "$DB"
is "$rc" 0 "capacity, 2 GPUs a node: exit 0"
like "$out" "capacity 1: 1 node like $T/two.yaml (2 GPUs each) needed for the 2 unschedulable pending pods" \
	"capacity, 2 GPUs a node: 1 node for the 2 pods left without a GPU, in GPUs"
like "$out" "(lower bound from total requests: 1, by GPUs (devices))" "capacity, 2 GPUs a node: the GPUs give the lower bound"
like "$out" "GPUs (devices): pending 4.0, free 2.0, per node 2.0 -> 1" "capacity, 2 GPUs a node: the GPU term (4 asked, 2 free, 2 a node)"
unlike "$out" "can never fit" "capacity, 2 GPUs a node: no pod left out as never fitting"

run "$KPLAN" capacity --nodes-needed --node-template "$T/one.yaml" "$DB"
is "$rc" 0 "capacity, 1 GPU a node: exit 0"
like "$out" "2 nodes like $T/one.yaml (1 GPU each) needed for the 2 unschedulable pending pods" \
	"capacity, 1 GPU a node: 2 nodes (one each)"
like "$out" "(lower bound from total requests: 2, by GPUs (devices))" "capacity, 1 GPU a node: the lower bound is the answer"
like "$out" "checked: with 1, 1 pod stays unschedulable" "capacity, 1 GPU a node: ... and 1 is not enough"
unlike "$out" "can never fit" "capacity, 1 GPU a node: the pod the first added node's GPU went to does not make the other a never-fit"

run "$KPLAN" capacity --nodes-needed --node-template "$T/two.yaml" --format json "$DB"
like "$out" '"status":"found","nodes":1,' "capacity JSON: found, 1 node"

run "$KPLAN" capacity --nodes-needed --node-template "$T/none.yaml" "$DB"
like "$out" "2 pending pods can never fit on nodes like $T/none.yaml" "capacity: a template without slices never fits, as before"

# ---- the what-if itself ----
run "$KPLAN" plan --add-nodes "$T/two.yaml:2" "$DB"
is "$rc" 0 "plan --add-nodes with slices: exit 0"
like "$out" "2 nodes added from template big (big-whatif-1, big-whatif-2), each with 2 devices in 1 ResourceSlice of its own" \
	"plan --add-nodes: the effect names the devices"
like "$out" "4 pending pods: 4 placed, 0 unschedulable" "plan --add-nodes: every replica placed"
is "$(q "$DB" "SELECT group_concat(pool, ' ') FROM (SELECT DISTINCT pool FROM dra_allocation
	WHERE run_id = (SELECT max(id) FROM run) AND node_id < 0 ORDER BY pool)")" "big-big-whatif-1 big-big-whatif-2" \
	"plan --add-nodes: devices allocated from each added node's own pool (TEMPLATE-POOL-NODE)"
is "$(q "$DB" "SELECT count(DISTINCT node_id) FROM dra_allocation WHERE run_id = (SELECT max(id) FROM run) AND node_id < 0
	GROUP BY pool HAVING count(DISTINCT node_id) > 1")" "" "plan --add-nodes: a pool's devices all on one node"
is "$(sqlite3 "$DB" ".dump resource_slice slice_device device_attribute slice_counter" | sha256sum)" "$before" \
	"plan --add-nodes: the imported slice tables unchanged"

# ---- fix --node-template ----
"$KPLAN" plan -q "$DB" >/dev/null 2>&1
run "$KPLAN" fix --node-template "$T/two.yaml" "$DB"
is "$rc" 0 "fix: exit 0"
like "$out" "2 of 2 unschedulable pods examined have a fix" "fix: both pods have a fix"
is "$(printf '%s\n' "$out" | grep -c "\[add-node\]: add one node like $T/two.yaml; checked")" 2 \
	"fix: adding one node like the template, for each unschedulable pod"
like "$out" "joint change set: 1 change for the 2 pods with a fix, checked in one plan: 2 of them placed" \
	"fix: one added node (two GPUs) places both"
run "$KPLAN" fix --node-template "$T/two.yaml" --format json -q "$DB"
is "$(printf '%s' "$out" | grep -o '"level":"add-node","kind":"add-node","detail":"add one node like [^"]*","victims":\[\],"checked":true' | sort -u | wc -l | tr -d ' ')" 1 \
	"fix JSON: the add-node fix, checked"
is "$(q "$DB" "SELECT count(*) FROM fix WHERE run_id = (SELECT max(id) FROM run WHERE options NOT LIKE '%whatif%') AND rank = 1 AND kind = 'add-node' AND checked = 1")" 2 \
	"fix table: an add-node fix for each of the two pods"
run "$KPLAN" fix --node-template "$T/none.yaml" "$DB"
like "$out" "0 of 2 unschedulable pods examined have a fix" "fix: a template without slices fixes nothing, as before"

# ---- refused ----
tmpl "$T/sel.yaml" "[{name: gpu-0}]" "nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: rack, operator: In, values: [\"1\"]}]}]}"
tmpl "$T/all.yaml" "[{name: gpu-0}]" "allNodes: true"
tmpl "$T/other.yaml" "[{name: gpu-0}]" "nodeName: n9"
for c in "sel:spec.nodeSelector" "all:spec.allNodes" "other:spec.nodeName 'n9'"; do
	f=${c%%:*}
	run "$KPLAN" capacity --nodes-needed --node-template "$T/$f.yaml" "$DB"
	is "$rc" 1 "$f: refused"
	like "$err" "--node-template '$T/$f.yaml': $T/$f.yaml:6:1: ResourceSlice big-gpus: ${c#*:}: a node template's ResourceSlices hold its Node's own devices; only spec.nodeName: big is allowed" \
		"$f: FILE:LINE:COL, the field, and what is allowed"
done
cat "$T/two.yaml" >"$T/class.yaml"
printf -- '---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: other}\n' >>"$T/class.yaml"
run "$KPLAN" plan --add-nodes "$T/class.yaml:1" "$DB"
like "$err" "a node template holds exactly one Node, and ResourceSlices of its devices, nothing else ($T/class.yaml holds 1 Node and 1 other object)" \
	"a DeviceClass in a template: refused"

# a database without the slice tables (made before them): slices refused,
# a template without slices as before
cp "$DB" "$T/old.db"
sqlite3 "$T/old.db" "DROP TABLE device_taint; DROP TABLE device_counter; DROP TABLE device_capacity;
	DROP TABLE device_attribute; DROP TABLE slice_counter; DROP TABLE slice_device; DROP TABLE resource_slice"
run "$KPLAN" plan --add-nodes "$T/two.yaml:1" "$T/old.db"
is "$rc" 1 "old database, template with slices: refused"
like "$err" "holds ResourceSlices, but this database was made before kplan had DRA tables" "old database: says why"
run "$KPLAN" plan --add-nodes "$T/none.yaml:1" "$T/old.db"
is "$rc" 0 "old database, template without slices: as before"

done_testing
