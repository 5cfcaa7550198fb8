#!/usr/bin/env bash
# 44-fast-vs-reference.t — the planner's speed-ups never change a plan.
#
# `kplan plan` keeps per-node caches (node-local verdicts and scores per
# class, keyed on node versions), counts inter-pod terms with incremental
# counters and finds existing anti-affinity through a label index;
# `kplan plan --reference` runs every plugin on every node for every pod.
# On generated clusters (bench/gen: plain and full mix — node affinity,
# tolerations, required anti-affinity, DoNotSchedule spread, preemption —
# and the full mix with volumes: zonal PVs, provisioning, attach limits),
# several seeds, examples/ and the openb trace, both runs must write the
# same placement, eviction and pod_failure rows.
. "$(dirname "$0")/../lib.sh"

GEN=$(dirname "$KPLAN")/bench/gen
if [ "$SAN" = 1 ]; then NODES=60 PODS=1500; else NODES=200 PODS=6000; fi

# same DB: runs 1 (fast) and 2 (reference) differ in no row
same_plans() { # DB NAME
	for t in "placement:pod_id, seq, action, node_id, from_node_id, score, feasible, attempts, reason" \
		 "eviction:seq, pod_id, node_id, preemptor_pod_id, pdb_violated, pdbs" \
		 "pod_failure:pod_id, plugin, reason, nodes" \
		 "volume_decision:seq, pod_id, claim_id, action, pv, node_id" \
		 "dra_allocation:seq, pod_id, claim_id, request, driver, pool, device, node_id" \
		 "gpu_fragmentation:node_id, gpus, free_milli, frag_milli, cpu_left, free_list"; do
		[ "$(q "$1" "SELECT count(*) FROM sqlite_master WHERE name = '${t%%:*}'")" = 0 ] && continue
		tab=${t%%:*} cols=${t#*:}
		d=$(q "$1" "SELECT (SELECT count(*) FROM (SELECT $cols FROM $tab WHERE run_id = 1 EXCEPT SELECT $cols FROM $tab WHERE run_id = 2))
			 + (SELECT count(*) FROM (SELECT $cols FROM $tab WHERE run_id = 2 EXCEPT SELECT $cols FROM $tab WHERE run_id = 1))")
		n=$(q "$1" "SELECT count(*) FROM $tab WHERE run_id = 1")
		is "$d" 0 "$2: $tab rows identical ($n rows)"
	done
}

plan_both() { # DB NAME [OPTION...]
	local db=$1 name=$2
	shift 2
	run "$KPLAN" plan -q "$@" "$db"
	is "$rc" 0 "$name: plan exits 0"
	run "$KPLAN" plan -q --reference "$@" "$db"
	is "$rc" 0 "$name: plan --reference exits 0"
	is "$(q "$db" "SELECT json_extract(options, '$.reference') FROM run WHERE id = 2")" 1 "$name: run.options records --reference"
	same_plans "$db" "$name"
}

for mix in plain full volumes; do
	for seed in 1 2 3; do
		db=$T/$mix-$seed.db
		"$GEN" --nodes "$NODES" --pods "$PODS" --seed "$seed" --mix "$mix" -o "$T/c.yaml"
		"$KPLAN" import -q "$db" "$T/c.yaml"
		plan_both "$db" "$mix mix, seed $seed"
	done
done
# the full mix must really exercise what the caches skip
db=$T/full-1.db
ok "$([ "$(q "$db" "SELECT count(*) FROM eviction WHERE run_id = 1")" -gt 0 ]; echo $?)" "full mix: preemption evicted pods"
ok "$([ "$(q "$db" "SELECT count(*) FROM placement WHERE run_id = 1 AND action = 'unschedulable'")" -gt 0 ]; echo $?)" \
	"full mix: some pods are unschedulable (reasons compared)"
ok "$([ "$(q "$db" "SELECT count(*) FROM pod_affinity_term")" -gt 0 ]; echo $?)" "full mix: pods with affinity terms"
ok "$([ "$(q "$db" "SELECT count(*) FROM pod_spread")" -gt 0 ]; echo $?)" "full mix: pods with spread constraints"
# (the three seeds together: one small cluster of the sanitizer build may leave its claims pending)
nvd=0 nvp=0
for seed in 1 2 3; do
	nvd=$((nvd + $(q "$T/volumes-$seed.db" "SELECT count(*) FROM volume_decision WHERE run_id = 1")))
	nvp=$((nvp + $(q "$T/volumes-$seed.db" "SELECT count(*) FROM pod_volume v JOIN placement p ON p.pod_id = v.pod_id AND p.run_id = 1 WHERE p.action IN ('bind', 'move')")))
done
ok "$([ "$nvd" -gt 0 ]; echo $?)" "volumes mix: the runs decided claims (volume_decision: $nvd)"
ok "$([ "$nvp" -gt 0 ]; echo $?)" "volumes mix: pods with volumes were placed ($nvp)"

db=$T/examples.db
"$KPLAN" import -q "$db" "$ROOT/examples"
plan_both "$db" "examples/"

# gangs (docs/gangs.md): pod-group cycles, reverted groups and the batch
# retry after them, 1.35's Permit timeout (tests/t/21-gang.t has a larger
# generated cluster of gangs)
for g in revert order early-stop basic; do
	db=$T/gang-$g.db
	"$KPLAN" import -q "$db" "$TESTS_DIR/e2e/g-gang-$g.yaml"
	plan_both "$db" "gang $g" --kube-version 1.37 --feature-gates GenericWorkload=true
done
# workload-aware preemption (1.37): dry runs, reprieves and group evictions give the same rows
for g in evicts-pods victim-gang-all pdb-last; do
	db=$T/wap-$g.db
	"$KPLAN" import -q "$db" "$TESTS_DIR/e2e/g-wap-$g.yaml"
	plan_both "$db" "gang preemption $g" --kube-version 1.37 --feature-gates GenericWorkload=true
done
db=$T/wap-mix.db
"$KPLAN" import -q "$db" "$TESTS_DIR/data/gang/preempt-mix.yaml"
plan_both "$db" "gang preemption mix" --kube-version 1.37 --feature-gates GenericWorkload=true
ok "$([ "$(q "$db" "SELECT count(*) FROM eviction e JOIN pod_gang g ON g.pod_id = e.preemptor_pod_id WHERE run_id = 1")" -gt 10 ]; echo $?)" \
	"gang preemption mix: pod groups evicted pods"
db=$T/gang-v135.db
"$KPLAN" import -q "$db" "$TESTS_DIR/e2e/g-gang-v135-timeout.yaml"
plan_both "$db" "gang 1.35 Permit timeout" --kube-version 1.35 --feature-gates GenericWorkload=true,GangScheduling=true

# --strategy kube-1.20: 1.20's BalancedAllocation and score weights through the
# node-local cache and the node buckets
db=$T/k120.db
"$GEN" --nodes "$NODES" --pods "$PODS" --seed 4 --mix full -o "$T/c.yaml"
"$KPLAN" import -q "$db" "$T/c.yaml"
plan_both "$db" "full mix, --strategy kube-1.20" --strategy kube-1.20
# --tie-break node-rank: one node ranking for every pod, through the node
# buckets' tie hashing and best_node's
db=$T/rank.db
"$GEN" --nodes "$NODES" --pods "$PODS" --seed 5 --mix plain -o "$T/c.yaml"
"$KPLAN" import -q "$db" "$T/c.yaml"
plan_both "$db" "plain mix, --tie-break node-rank" --tie-break node-rank

# devices (DRA): the dra-example-driver manifests on two nodes of eight GPUs
if [ -d "$KP_SHARED_DATA/realworld2" ]; then
	db=$T/dra.db
	"$KPLAN" import -q "$db" "$TESTS_DIR/data/dra/two-nodes-8-gpus.yaml" "$KP_SHARED_DATA"/realworld2/dra-example-driver_*.yaml
	plan_both "$db" "DRA example driver"
else
	skip "realworld2 absent" 8
fi

D=$KP_SHARED_DATA/openb
if [ -d "$D" ] && [ "$SAN" != 1 ]; then
	db=$T/openb.db
	"$KPLAN" import -q "$db" "$D/openb_node_list_gpu_node.csv" "$D/openb_pod_list_gpuspec33.csv"
	plan_both "$db" "openb gpuspec33"
	# the GPU scores' memo (gpu_frag.c) and the device pick they steer
	db=$T/openb-pack.db
	"$KPLAN" import -q "$db" "$D/openb_node_list_gpu_node.csv" "$D/openb_pod_list_gpushare40.csv"
	plan_both "$db" "openb gpushare40, --strategy gpu-pack" --strategy gpu-pack
else
	skip "openb: $D absent or SAN build (slow)" 18
fi
done_testing
