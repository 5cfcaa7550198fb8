#!/usr/bin/env bash
# 16-volumes.t — volumes through every answer (issue 16), end to end on the
# fixtures of tests/data/volumes/:
#   zonal-sts.yaml    two zones of two nodes; db-0 on node-a1 and db-1 on
#                     node-b1, each with a claim bound to a PV of its zone
#   local-pv.yaml     three nodes; n1 holds three ReplicaSet pods and
#                     cache-0, whose claim is bound to a local PV of n1
#   fix-pinned.yaml   zonal-sts with 2-cpu nodes, zone a full, and a pending
#                     pod web whose claim's PV is in zone a
#   attach-limit.yaml three nodes with a CSINode limit of one EBS volume,
#                     a StatefulSet of four replicas with provisioned claims
# --drain and --survive keep a pod in its volume's zone or lose it (and say
# why), fix says what pins a pod and finds the node template of the right
# zone, rebalance never moves a pod off its local PV, a node at its CSI
# attach limit takes no more volumes and the plan-quality bound counts the
# slots, explain shows the volumes.  Expected values were worked out by hand
# from the fixtures.
. "$(dirname "$0")/../lib.sh"
D=$TESTS_DIR/data/volumes

# --- a zonal StatefulSet drained and zone-lost
db=$T/zonal.db
"$KPLAN" import -q "$db" "$D/zonal-sts.yaml"
run "$KPLAN" plan -q --drain node-a1 "$db"
is "$rc" 0 "drain node-a1: exit 0"
is "$(q "$db" "SELECT action || ' ' || node FROM plan WHERE pod = 'db-0'")" "move node-a2" \
	"drain: db-0 moves within zone a, where its PV is (node-b2 is free too)"
run "$KPLAN" plan -q --drain node-a1 --drain node-a2 "$db"
like "$(q "$db" "SELECT reason FROM plan WHERE pod = 'db-0' AND run_id = (SELECT max(id) FROM run)")" \
	"0/4 nodes are available: 2 node(s) didn't match PersistentVolume's node affinity, 2 node(s) were unschedulable." \
	"drain zone a: db-0 has nowhere to go (its PV's node affinity)"
run "$KPLAN" capacity --survive zone "$db"
is "$rc" 0 "capacity --survive zone: exit 0 (a verdict)"
like "$out" "loses default/db-0 (priority 0): pinned to zone a by PV pv-0 (claim data-db-0): 0/2 nodes are available: 2 node(s) didn't match PersistentVolume's node affinity." \
	"--survive zone: the lost pod says what pins it"
like "$out" "does not survive" "--survive zone: the verdict"

# --- a local PV pins its pod: rebalance leaves it, drain loses it
db=$T/local.db
"$KPLAN" import -q "$db" "$D/local-pv.yaml"
run "$KPLAN" plan -q --mode rebalance "$db"
is "$rc" 0 "rebalance: exit 0"
is "$(q "$db" "SELECT action || ' ' || node FROM plan WHERE pod = 'cache-0'")" "keep n1" "rebalance: cache-0 stays on its local PV's node"
is "$(q "$db" "SELECT count(*) FROM plan WHERE action = 'move'")" 2 "rebalance: two ReplicaSet pods move off n1"
run "$KPLAN" plan -q --drain n1 "$db"
like "$(q "$db" "SELECT reason FROM plan WHERE pod = 'cache-0' AND run_id = (SELECT max(id) FROM run)")" \
	"2 node is filtered out by the prefilter result" \
	"drain n1: cache-0 may only go to n1 (VolumeBinding's PreFilterResult from the local PV)"

# --- fix: what pins a pod, and a node template of the right zone
db=$T/fix.db
"$KPLAN" import -q "$db" "$D/fix-pinned.yaml"
"$KPLAN" plan -q "$db"
run "$KPLAN" fix --no-record --node-template "$D/node-zone-b.yaml" "$db"
like "$out" "default/web: no fix found" "fix, template in zone b: no fix (the PV is in zone a)"
like "$out" "its volumes pin it (pinned to zone a by PV pv-2 (claim data-web))" "fix: says what pins it"
run "$KPLAN" fix --no-record --node-template "$D/node-zone-a.yaml" --format json "$db"
like "$out" '"detail":"add one node like' "fix, template in zone a: adding the node is the fix"
like "$out" '"pinned":"pinned to zone a by PV pv-2 (claim data-web)"' "fix JSON: pinned"

# --- a node at its CSI attach limit; the quality bound counts the slots
db=$T/attach.db
"$KPLAN" import -q "$db" "$D/attach-limit.yaml"
run "$KPLAN" plan -q "$db"
is "$(q "$db" "SELECT count(DISTINCT node) FROM plan WHERE action = 'bind'")" 3 "attach limit 1: three replicas on three nodes"
like "$(q "$db" "SELECT reason FROM plan WHERE pod = 'db-3'")" "0/3 nodes are available: 3 node(s) exceed max volume count." \
	"attach limit: the fourth replica finds no slot"
is "$(q "$db" "SELECT count(*) || ' ' || group_concat(DISTINCT action) FROM volume_decision")" "3 provision" \
	"volume_decision: three claims provisioned"
is "$(q "$db" "SELECT bound || ' ' || bound_by || ' ' || nodes_used FROM plan_quality")" "3 requests:attach:ebs.csi.aws.com 3" \
	"plan quality: attach slots bound the nodes needed (3 volumes, 1 slot per node)"
is "$(q "$db" "SELECT exhausted_by FROM plan_stranded WHERE resource = 'cpu'")" "attach:ebs.csi.aws.com" \
	"plan_stranded: the cpu left is stranded by exhausted attach slots"
run "$KPLAN" explain "$db" default/db-3
like "$out" "volumes:" "explain: a volumes block"
like "$out" "data: claim data-db-3 unbound, WaitForFirstConsumer (class ebs, provisioner ebs.csi.aws.com)" "explain: the claim and its class"
like "$out" "NodeVolumeLimits: node(s) exceed max volume count" "explain: each node's verdict names the plugin"
run "$KPLAN" explain "$db" default/db-0
like "$out" "on n1: provisioned by ebs.csi.aws.com" "explain: what VolumeBinding does on the chosen node"
like "$out" "attach limit on n1: ebs.csi.aws.com 0 of 1 volumes in use" "explain: the chosen node's attach count before the pod"

# --- --from-run keeps the claims the run bound or provisioned
db=$T/fromrun.db
"$KPLAN" import -q "$db" "$TESTS_DIR/e2e/v-e2e-smallest-fit-taken.yaml"
"$KPLAN" plan -q "$db"
is "$(q "$db" "SELECT group_concat(claim || '=' || pv, ' ') FROM (SELECT * FROM volume_decision WHERE run_id = 1 ORDER BY seq)")" \
	"small-data=pv-5g big-data=pv-20g" "run 1 binds two claims to PVs (smallest fit)"
run "$KPLAN" plan --from-run 1 "$db"
like "$out" "2 claims it bound or provisioned so" "--from-run: says it keeps the run's volume decisions"
is "$(q "$db" "SELECT action FROM placement WHERE run_id = 2 AND pod_id = (SELECT id FROM pod WHERE name = 'late')")" "unschedulable" \
	"--from-run: the PVs run 1 took stay taken (late finds none)"
is "$(q "$db" "SELECT count(*) FROM pvc WHERE volume_name IS NOT NULL")" 0 "--from-run: the imported claims are untouched"
db=$T/attach.db
run "$KPLAN" plan --from-run 1 "$db"
like "$out" "3 claims it bound or provisioned so" "--from-run: provisioned claims stay pinned to their nodes"
like "$(q "$db" "SELECT reason FROM placement WHERE run_id = (SELECT max(id) FROM run) AND pod_id = (SELECT id FROM pod WHERE name = 'db-3')")" \
	"3 node(s) exceed max volume count" "--from-run: the attach slots stay used"
done_testing
