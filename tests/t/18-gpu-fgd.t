#!/usr/bin/env bash
# 18-gpu-fgd.t — GPUs as devices (issue 18, docs/gpu-devices.md): the
# FGD paper's node score (plan --strategy fgd, planner/plugins/fgd_score.c)
# and the fragmentation a run records, on a cluster small enough to work out
# by hand.
#
# Two nodes of one GPU and 8 cpu each; pod a asks 400 milli of a GPU, pod b
# 600 (1 cpu each).  The typical shapes are both pods' (weight 0.5 each).
# For b, after a is on node X's GPU (400 used, 600 free):
#   on X: before, free [600]: shape 400 fits (its fragment: GPUs with < 400
#     free: none), shape 600 fits (none) -> F = 0; after, free [0] -> F = 0;
#     score = trunc(100 * sigmoid(0)) = 50;
#   on the empty node Y: before F = 0; after, free [400]: shape 400 fits
#     (fragment 0), shape 600 cannot (400 < 600) -> all 400 free counts,
#     weighted 0.5 -> F = 200; score = trunc(100 * sigmoid(-200/1000)) = 45.
# So FGD puts b beside a (a GPU full, the other free), where kube's
# LeastAllocated spreads it to the emptier node (both GPUs part used, 400
# and 600 milli stranded).
. "$(dirname "$0")/../lib.sh"
cat >"$T/nodes.csv" <<'CSV'
sn,cpu_milli,memory_mib,gpu,model
node-x,8000,16384,1,T4
node-y,8000,16384,1,T4
CSV
cat >"$T/pods.csv" <<'CSV'
name,cpu_milli,memory_mib,num_gpu,gpu_milli
pod-a,1000,1024,1,400
pod-b,1000,1024,1,600
CSV
db="$T/g.db"
run "$KPLAN" import -q "$db" "$T/nodes.csv" "$T/pods.csv"
is "$rc" 0 "import the tiny openb cluster"

# kube's default scores: b goes to the other node
run "$KPLAN" plan -q "$db"
is "$rc" 0 "plan with kube's default scores"
na=$(q "$db" "SELECT node FROM plan WHERE pod = 'pod-a'")
nb=$(q "$db" "SELECT node FROM plan WHERE pod = 'pod-b'")
ok "$([ -n "$na" ] && [ -n "$nb" ] && [ "$na" != "$nb" ]; echo $?)" "default: a and b on different nodes ($na, $nb)"
is "$(q "$db" "SELECT sum(free_milli) || ' ' || printf('%.1f', sum(frag_milli)) FROM gpu_fragmentation WHERE run_id = (SELECT max(id) FROM run)")" \
	"1000 200.0" "default: 1000 milli free; a's GPU (600 free) fits both shapes, b's (400 free) not shape 600: 0.5 x 400 = 200 fragmented"
is "$(q "$db" "SELECT count(*) || ' ' || group_concat(printf('%d:%s:%.2f', seq, gpus || 'x' || milli, weight), ' ') FROM gpu_typical_shape WHERE run_id = (SELECT max(id) FROM run)")" \
	"2 1:1x600:0.50 2:1x400:0.50" "typical shapes: both pods', weight 0.5, the larger milli first on a tie"

# FGD: b beside a
run "$KPLAN" plan -q --strategy fgd "$db"
is "$rc" 0 "plan --strategy fgd"
na=$(q "$db" "SELECT node FROM plan WHERE pod = 'pod-a'")
nb=$(q "$db" "SELECT node FROM plan WHERE pod = 'pod-b'")
is "$nb" "$na" "fgd: b on a's node"
is "$(q "$db" "SELECT group_concat(free_list, ' ') FROM (SELECT free_list FROM gpu_fragmentation WHERE run_id = (SELECT max(id) FROM run) ORDER BY free_list)")" \
	"[0] [1000]" "fgd: one GPU full, the other free"
is "$(q "$db" "SELECT printf('%.1f', sum(frag_milli)) FROM gpu_fragmentation WHERE run_id = (SELECT max(id) FROM run)")" \
	"0.0" "fgd: nothing fragmented (a free GPU fits both shapes)"
run "$KPLAN" explain "$db" openb/pod-b
is "$rc" 0 "explain pod-b under the fgd run"
like "$out" "FGDScore" "explain shows FGDScore"
like "$out" "50->50x1000" "b's node scores 50 (fragmentation unchanged)"
like "$out" "45->45x1000" "the empty node scores 45 (200 milli more fragmented)"

# --tie-break (planner/cycle.c kp_tiebreak_pod_of): FGDScore gives a node
# without GPUs 50, so six small pods on four empty cpu nodes all tie.  The
# paper's simulator (a kube 1.20.5 fork) took the smallest node name, its
# names prefixed with a random permutation: one ranking for every pod, so all
# six land on one node; kube's random tie-break spreads them.  (A seventh pod
# fits nowhere, for fix.)
cat >"$T/ties.csv" <<'CSV'
sn,cpu_milli,memory_mib,gpu,model
cpu-1,8000,16384,0,
cpu-2,8000,16384,0,
cpu-3,8000,16384,0,
cpu-4,8000,16384,0,
CSV
cat >"$T/tiepods.csv" <<'CSV'
name,cpu_milli,memory_mib,num_gpu,gpu_milli
small-1,100,128,0,0
small-2,100,128,0,0
small-3,100,128,0,0
small-4,100,128,0,0
small-5,100,128,0,0
small-6,100,128,0,0
too-big,9000,128,0,0
CSV
tdb="$T/ties.db"
"$KPLAN" import -q "$tdb" "$T/ties.csv" "$T/tiepods.csv" || fail "import the tie cluster"
q1() { q "$@" | sed -e 's/^"\(.*\)"$/\1/' -e 's/""/"/g'; }
nodes_used() { q "$tdb" "SELECT count(DISTINCT node) || ' ' || count(*) FROM plan WHERE run_id = (SELECT max(id) FROM run) AND action = 'bind'"; }
run "$KPLAN" plan --strategy fgd "$tdb"
is "$(nodes_used)" "1 6" "fgd ranks tied nodes (node-rank): all six pods on one node"
like "$out" "tie-break node-rank: nodes with equal totals are taken in one seeded ranking of the nodes (seed 1)" \
	"the summary says how ties were broken"
like "$(q1 "$tdb" "SELECT config FROM run WHERE id = (SELECT max(id) FROM run)")" '"tieBreak":"node-rank"' "run.config records it"
run "$KPLAN" explain "$tdb" openb/small-6
like "$out" "the seeded node ranking (--tie-break node-rank, the same for every pod) picked" "explain names the ranking"
run "$KPLAN" fix "$tdb"
like "$out" "baseline: run 1's options (seed 1, ties by the node ranking," "fix replays the run's tie-break and says so"
like "$("$KPLAN" report "$tdb")" "tie_break         node-rank" "the report's summary says the run ranked the nodes"
run "$KPLAN" plan --strategy fgd --tie-break random "$tdb"
ok "$([ "$(nodes_used | cut -d' ' -f1)" -gt 1 ]; echo $?)" "--tie-break random (kube's): the six spread ($(nodes_used | cut -d' ' -f1) nodes)"
unlike "$out" "tie-break node-rank" "and the summary has no ranking line"
is "$(q "$tdb" "SELECT json_extract(options, '\$.tie_break') FROM run WHERE id = (SELECT max(id) FROM run)")" "random" \
	"run.options records --tie-break"
run "$KPLAN" explain "$tdb" openb/small-6
like "$out" "the seeded tie-break hash picked" "explain replays the run's --tie-break random"
run "$KPLAN" plan -q --seed 2 --tie-break node-rank --strategy fgd "$tdb"
is "$(nodes_used)" "1 6" "another seed: one node again (its ranking's first)"
run "$KPLAN" plan -q --tie-break nod-rank "$tdb"
ok "$([ "$rc" -ne 0 ]; echo $?)" "a misspelt --tie-break is refused"
like "$err" "--tie-break: 'nod-rank' is not random or node-rank; did you mean 'node-rank'?" "with a did-you-mean"

# the option is checked
run "$KPLAN" plan -q --strategy fdg "$db"
ok "$([ "$rc" -ne 0 ]; echo $?)" "a misspelt strategy is refused"
like "$err" "least, most, balanced, fgd, gpu-pack or kube-1.20" "the message lists the strategies"
like "$err" "did you mean 'fgd'?" "and names the one meant"

# capacity's dry runs (TEMP copies of the run tables) plan GPUs too: a third
# pod of a whole GPU fits nowhere; one node like the template (a GPU as a
# device of the openb driver) is needed
printf 'pod-c,1000,1024,1,1000\n' >>"$T/pods.csv"
cdb="$T/c.db"
"$KPLAN" import -q "$cdb" "$T/nodes.csv" "$T/pods.csv" || fail "import with pod-c"
cat >"$T/tmpl.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: gpu1, labels: {alibabacloud.com/gpu-card-model: T4}}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu1-gpus}
spec:
  driver: gpu.openb.kplan.io
  pool: {name: gpu1, generation: 1, resourceSliceCount: 1}
  nodeName: gpu1
  devices:
  - {name: gpu-0, allowMultipleAllocations: true, capacity: {milli: {value: "1000"}}}
YAML
run "$KPLAN" capacity "$cdb" --nodes-needed --node-template "$T/tmpl.yaml" --no-record
is "$rc" 0 "capacity --nodes-needed on GPUs as devices exits 0"
like "$out" "1 node like $T/tmpl.yaml (1 GPU each) needed" "one node like the template (its GPU as a device) is needed for the whole-GPU pod"
like "$out" "GPUs (devices): pending 2.0, free 2.0, per node 1.0 -> 0" \
	"the lower bound's GPU term: 2.0 GPUs asked (0.4 + 0.6 + 1), 2 free, 1 per node: 0 — the two shares and the whole GPU do not fit two GPUs, which the bound cannot see"

# fix on GPUs: pods a and b (300 milli each) land on the two GPUs, one each;
# pod c asks 800 and fits neither (700 free on each).  Moving the 300 off one
# GPU frees it for c, and the moved pod fits beside the other (700 free):
# a move-gpu fix, checked by a dry run that places c and the moved pod again
cat >"$T/pods2.csv" <<'CSV'
name,cpu_milli,memory_mib,num_gpu,gpu_milli
pod-a,1000,1024,1,300
pod-b,1000,1024,1,300
pod-c,1000,1024,1,800
CSV
fdb="$T/fix.db"
"$KPLAN" import -q "$fdb" "$T/nodes.csv" "$T/pods2.csv" || fail "import the fix cluster"
"$KPLAN" plan -q "$fdb" || fail "plan the fix cluster"
is "$(q "$fdb" "SELECT count(*) FROM plan WHERE pod = 'pod-c' AND action = 'unschedulable'")" 1 "fix: pod-c is unschedulable (700 milli free on each GPU)"
# explain speaks in the GPUs' capacity: what pod-c asks, and per rejected node the most free
run "$KPLAN" explain "$fdb" openb/pod-c
like "$out" "to allocate: gpu (class gpu.openb.kplan.io, 1 device(s), capacity milli=800)" "explain: the share asked"
like "$out" "gpu: 1 of 1 device(s) selected, 0 with room for the share (the most free: 700 milli)" \
	"explain: no GPU has room; the most free is 700 milli"
run "$KPLAN" explain "$fdb" openb/pod-a
like "$out" "/gpu-0 (1000 of 1000 milli free)" "explain: the GPU pod-a takes, and its free milli before"
run "$KPLAN" fix "$fdb"
is "$rc" 0 "fix exits 0"
like "$out" "[move]: queue after it 1 shared pod that the run put on GPU gpu-0 of node-" "fix (a replay of the run): the shared pod on a GPU queued after it"
like "$out" "(700 of 1000 milli free, the pod asks 800): openb/pod-" "fix: the GPU's free milli and the ask, in devices"
like "$out" "(300 milli); each placed again" "fix: the moved pod and its share, placed again"
is "$(q "$fdb" "SELECT level || ' ' || kind || ' ' || checked FROM fix WHERE pod = 'pod-c' AND rank = 1")" "move-gpu move 1" \
	"fix table: pod-c's first fix is a checked GPU move"
# from the state the run left (--from-run): the pods are bound and the shares
# on their GPUs (dra_allocation.consumed), so the move takes pod-a off its
# GPU and pod-c goes there
run "$KPLAN" fix --no-record --from-run 1 "$fdb"
is "$rc" 0 "fix --from-run exits 0"
na=$(q "$fdb" "SELECT n.name FROM dra_allocation a JOIN node n ON n.id = a.node_id JOIN pod p ON p.id = a.pod_id WHERE a.run_id = 1 AND p.name = 'pod-a'")
like "$out" "[move]: move 1 shared pod off GPU gpu-0 of $na (700 of 1000 milli free, the pod asks 800): openb/pod-a (300 milli); each placed again; checked: fits on $na" \
	"fix --from-run: pod-a moves off its GPU and pod-c fits there"
# --from-run keeps the run's shares as shares (not whole devices): the third pod
# does not fit, and a 700-milli one would
run "$KPLAN" plan -q --from-run 1 "$fdb"
is "$(q "$fdb" "SELECT action FROM plan WHERE pod = 'pod-c'")" "unschedulable" "plan --from-run: the shares stay taken (800 milli fits no GPU)"
is "$(q "$fdb" "SELECT group_concat(json_extract(consumed, '\$[0][1]') || '=' || json_extract(consumed, '\$[0][2]'), ' ') FROM dra_allocation WHERE run_id = 1")" \
	"milli=300 milli=300" "dra_allocation.consumed: each share's capacity"

# a DRA cluster with dedicated GPUs (no openb): the driver a pod's request
# selects is a GPU driver, its node-local devices count 1000 milli each,
# free or taken whole; a device of a driver no request selects is not a GPU
cat >"$T/dra.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: gpu-node, labels: {kubernetes.io/hostname: gpu-node}}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu-node-gpus}
spec:
  driver: gpu.example.com
  pool: {name: gpu-node, generation: 1, resourceSliceCount: 1}
  nodeName: gpu-node
  devices:
  - {name: gpu-0}
  - {name: gpu-1}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gpu-node-nics}
spec:
  driver: nic.example.com
  pool: {name: gpu-node, generation: 1, resourceSliceCount: 1}
  nodeName: gpu-node
  devices:
  - {name: nic-0}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: default}
spec:
  containers:
  - name: c
    image: x
    resources: {requests: {cpu: "2"}, claims: [{name: gpu}]}
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: one-gpu}
YAML
ddb="$T/dra.db"
"$KPLAN" import -q "$ddb" "$T/dra.yaml" || fail "import dra.yaml"
run "$KPLAN" plan -q "$ddb"
is "$rc" 0 "dedicated GPUs: plan"
is "$(q "$ddb" "SELECT gpus || ' ' || free_milli || ' ' || replace(free_list, ',', ';') || ' ' || printf('%.1f', frag_milli) FROM gpu_fragmentation WHERE run_id = (SELECT max(id) FROM run)")" \
	"2 1000 [0;1000] 0.0" "dedicated GPUs: the node's two GPU devices (not the NIC), one taken whole, the free one fits the only shape"
is "$(q "$ddb" "SELECT cpu || ' ' || gpus || 'x' || milli || ' ' || pods FROM gpu_typical_shape WHERE run_id = (SELECT max(id) FROM run)")" \
	"2000 1x1000 1" "dedicated GPUs: the pod's shape is one whole GPU"
done_testing
